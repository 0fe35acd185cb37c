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
        for part in text.unicodeScalars.split(separator: ";", omittingEmptySubsequences: true) {
            let setting = part.trimmingWhitespace()
            if setting.isEmpty { continue }
            guard let equals = setting.firstIndex(of: "=") else {
                throw ParseError(
                    setting: String(Substring(setting.prefix(40))),
                    reason: "has no '=' (settings are Key=Value)"
                )
            }
            let key = String(Substring(setting[..<equals].trimmingWhitespace()))
            guard !key.isEmpty else { throw ParseError(setting: "", reason: "has a setting without a key") }
            if settings[key.lowercased()] == nil { spellings.append((key.lowercased(), key)) }
            settings[key.lowercased()] = String(
                Substring(setting[setting.index(after: equals)...].trimmingWhitespace())
            )
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
                reason: "must be http or https, not '\(scheme.prefix(20))'"
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

    /// The settings whose values are never secret, by lower-cased key.
    private static let shownSettings: Set<String> = [
        "defaultendpointsprotocol", "accountname", "endpointsuffix", "usedevelopmentstorage", "tableendpoint",
        "blobendpoint", "queueendpoint",
        "fileendpoint",
    ]
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
