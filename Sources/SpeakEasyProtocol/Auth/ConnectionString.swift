/// An Azure Storage connection string: `Key=Value` settings separated by `;`.
///
/// As both Python SDKs parse them: keys are case-insensitive, each setting splits on its first `=`
/// (keys end in `==`), empty settings (a trailing `;`) are skipped. `UseDevelopmentStorage=true`
/// expands to the development account on loopback (other settings given beside it win).
/// The description never shows the key or the SAS signature.
package struct ConnectionString: Sendable, CustomStringConvertible {
    /// Why a connection string cannot be used; names the setting at fault, never its secret value.
    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        package let setting: String
        package let reason: String

        package init(setting: String, reason: String) {
            self.setting = setting
            self.reason = reason
        }

        package var description: String {
            setting.isEmpty ? "connection string: \(reason)" : "connection string: \(setting) \(reason)"
        }
    }

    /// How the connection authenticates.
    package enum Credential: Sendable {
        case sharedKey(StorageCredentials)
        /// A SAS token, without a leading `?`, to append to every request.
        case sharedAccessSignature(String)
        case none
    }

    /// Settings by lower-cased key, values as written.
    private let settings: [String: String]
    /// Keys as written, in the order written (expanded defaults last), for the description.
    private let spellings: [(lowered: String, written: String)]

    package init(_ text: String) throws(ParseError) {
        var settings: [String: String] = [:]
        var spellings: [(lowered: String, written: String)] = []
        // Split on scalars, as the SDKs split on code units: a `;` or `=` followed by a combining
        // mark is one Character that equals neither.
        let parts = text.unicodeScalars.split(separator: ";", omittingEmptySubsequences: true)
            .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        // No error repeats the text of a setting: a mistyped `AccountKey:…`, or a key cut in two by a
        // `;`, would put the secret in a message, a log or a CI report.
        for (position, setting) in zip(1..., parts) {
            guard let equals = setting.firstIndex(of: "=") else {
                let named = Self.knownSetting(startingOf: String(Substring(setting)))
                throw ParseError(
                    setting: named ?? "setting \(position)",
                    reason: "has no '=' (settings are Key=Value; the text is not shown, for it may hold a secret)"
                )
            }
            let key = String(Substring(setting[..<equals].trimmingWhitespace()))
            guard !key.isEmpty else {
                throw ParseError(setting: "setting \(position)", reason: "has no key before its '='")
            }
            guard let known = Self.knownSettings.first(where: { $0.lowercased() == key.lowercased() }) else {
                // `AccountKey:…==`: a known name, then no '=' until the key's own padding.
                if let named = Self.knownSetting(startingOf: key),
                    let next = key.unicodeScalars.dropFirst(named.unicodeScalars.count).first,
                    !next.properties.isAlphabetic, !("0"..."9").contains(next)
                {
                    throw ParseError(
                        setting: named,
                        reason:
                            "has no '=' right after its name (settings are Key=Value; the text is not shown, for it may hold a secret)"
                    )
                }
                let guess = Self.nearestKnownSetting(to: key).map { " (did you mean \($0)?)" } ?? ""
                throw ParseError(
                    setting: "setting \(position)",
                    reason: "is not a setting Azure knows\(guess); the text is not shown, for it may hold a secret"
                )
            }
            guard settings[key.lowercased()] == nil else { throw ParseError(setting: known, reason: "is given twice") }
            let value = String(Substring(setting[setting.index(after: equals)...].trimmingWhitespace()))
            guard !value.isEmpty else { throw ParseError(setting: known, reason: "is empty") }
            spellings.append((key.lowercased(), key))
            settings[key.lowercased()] = value
        }
        if let development = settings["usedevelopmentstorage"] {
            guard development.lowercased() == "true" else {
                throw ParseError(setting: "UseDevelopmentStorage", reason: "must be true")
            }
            let port = { (service: StorageService) in DevelopmentAccount.endpoint(service) }
            let defaults = [
                "defaultendpointsprotocol": "http", "accountname": DevelopmentAccount.name,
                "accountkey": DevelopmentAccount.key,
                "blobendpoint": port(.blob),
                "queueendpoint": "http://\(DevelopmentAccount.host):10001/\(DevelopmentAccount.name)",
                "tableendpoint": port(.table),
            ]
            for key in defaults.keys.sorted() where settings[key] == nil { spellings.append((key, key)) }
            settings.merge(defaults) { given, _ in given }
        }
        if let scheme = settings["defaultendpointsprotocol"], !["http", "https"].contains(scheme.lowercased()) {
            throw ParseError(
                setting: "DefaultEndpointsProtocol",
                reason: "must be http or https"
            )
        }
        self.settings = settings
        self.spellings = spellings
    }

    /// A setting's value, by case-insensitive key.
    package subscript(key: String) -> String? { settings[key.lowercased()] }

    package var accountName: String? { self["AccountName"] }

    /// The endpoint of a service, without a trailing `/`: `TableEndpoint`/`BlobEndpoint` when given,
    /// else `<protocol>://<account>.<service>.<suffix>` (https and `core.windows.net` by default).
    package func endpoint(_ service: StorageService) throws(ParseError) -> String {
        let explicit = service == .table ? "TableEndpoint" : "BlobEndpoint"
        if let endpoint = self[explicit], !endpoint.isEmpty {
            guard endpoint.hasPrefix("http://") || endpoint.hasPrefix("https://") else {
                throw ParseError(setting: explicit, reason: "must be an http:// or https:// URL")
            }
            return endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        }
        guard let account = accountName, !account.isEmpty else {
            throw ParseError(setting: explicit, reason: "is missing, and there is no AccountName to derive it from")
        }
        let scheme = (self["DefaultEndpointsProtocol"] ?? "https").lowercased()
        let suffix = self["EndpointSuffix"] ?? "core.windows.net"
        return "\(scheme)://\(account).\(service.rawValue).\(suffix)"
    }

    /// Shared Key when there is an `AccountKey`, else the `SharedAccessSignature` (its leading `?`
    /// removed), else none.
    package func credential() throws(ParseError) -> Credential {
        if let key = self["AccountKey"] {
            guard let account = accountName, !account.isEmpty else {
                throw ParseError(setting: "AccountName", reason: "is required with AccountKey")
            }
            do { return .sharedKey(try StorageCredentials(accountName: account, key: key)) } catch {
                throw ParseError(setting: "AccountKey", reason: "is not a valid key (\(error.reason))")
            }
        }
        if var token = self["SharedAccessSignature"], !token.isEmpty {
            if token.hasPrefix("?") { token.removeFirst() }
            guard Self.isURLQuery(token) else {
                throw ParseError(
                    setting: "SharedAccessSignature",
                    reason: "is not a SAS token (a URL query such as sv=…&sig=…, percent-encoded)"
                )
            }
            return .sharedAccessSignature(token)
        }
        return .none
    }

    package var description: String {
        spellings.map { key, written in
            let value = settings[key] ?? ""
            switch key {
            case "sharedaccesssignature":
                let hidden = value.firstRange(of: "sig=").map { value[..<$0.upperBound] + "(hidden)" } ?? "(hidden)"
                return "\(written)=\(hidden)"
            case _ where Self.shownSettings.contains(key): return "\(written)=\(value)"
            // The key, and any setting we do not know: a misspelt `AcountKey=` holds a key too (found
            // by Fuzz/run connection-string).
            default: return "\(written)=(hidden)"
            }
        }.joined(separator: ";")
    }

    /// The settings of Azure's connection strings, as Azure spells them.
    private static let knownSettings = [
        "DefaultEndpointsProtocol", "AccountName", "AccountKey", "EndpointSuffix", "UseDevelopmentStorage",
        "DevelopmentStorageProxyUri", "SharedAccessSignature", "TableEndpoint", "BlobEndpoint", "QueueEndpoint",
        "FileEndpoint", "TableSecondaryEndpoint", "BlobSecondaryEndpoint", "QueueSecondaryEndpoint",
        "FileSecondaryEndpoint",
    ]

    /// The longest known setting name that `text` starts with, ignoring case.
    private static func knownSetting(startingOf text: String) -> String? {
        let lowered = text.lowercased()
        return knownSettings.filter { lowered.hasPrefix($0.lowercased()) }.max { $0.count < $1.count }
    }

    /// The known setting a mistyped key most likely meant: at most two edits away, ignoring case.
    private static func nearestKnownSetting(to key: String) -> String? {
        let typed = Array(key.lowercased().unicodeScalars)
        guard typed.count < 40 else { return nil }
        return knownSettings.map { (name: $0, distance: editDistance(typed, Array($0.lowercased().unicodeScalars))) }
            .filter { $0.distance <= 2 }.min { $0.distance < $1.distance }?.name
    }

    /// Levenshtein distance: insertions, deletions and substitutions.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Whether a SAS token can go into a URL's query as it is: only the characters RFC 3986 allows
    /// there, and `%` only before two hex digits.
    private static func isURLQuery(_ token: String) -> Bool {
        let bytes = Array(token.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count,
                    bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit
                else { return false }
                index += 3
                continue
            }
            guard byte < 0x80, queryBytes.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    /// The bytes RFC 3986 allows in a query besides percent-encodings.
    private static let queryBytes = Set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?".utf8
    )

    /// The settings whose values are never secret, by lower-cased key.
    private static let shownSettings: Set<String> = [
        "defaultendpointsprotocol", "accountname", "endpointsuffix", "usedevelopmentstorage", "tableendpoint",
        "blobendpoint", "queueendpoint",
        "fileendpoint",
    ]
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

extension Substring.UnicodeScalarView {
    fileprivate func trimmingWhitespace() -> Self {
        var start = startIndex
        var end = endIndex
        while start < end, self[start].properties.isWhitespace { start = index(after: start) }
        while end > start, self[index(before: end)].properties.isWhitespace { end = index(before: end) }
        return self[start..<end]
    }
}
