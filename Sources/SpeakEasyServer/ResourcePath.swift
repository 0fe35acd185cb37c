import SpeakEasyCore
import SpeakEasyProtocol
import SpeakEasyStorage

/// A request path decoded: the account, then the first segment (a container or a table resource) and
/// the rest (a blob's name, which may hold `/`).
///
/// Two styles name the account, as Azurite accepts them:
/// - path style, `/<account>/<resource…>`, what the SDKs send to an emulator;
/// - production style, the account as the first label of the host (`speakeasy.table.core.windows.net`)
///   and the resource as the whole path, what an app that hard-codes Azure's URLs sends once a
///   hosts-file entry or a DNS override points it here.
struct ResourcePath: Sendable {
    var account: String
    /// Nil for the account itself (`/devstoreaccount1` or `/devstoreaccount1/`).
    var first: String?
    /// Nil when the path has no further segment.
    var rest: String?
    /// Whether the account came from the `Host` header (production style) rather than the path.
    var accountInHost = false

    /// A path in path style: the account is its first segment.
    init(_ rawPath: String) throws(StorageError) {
        let segments = try Self.segments(rawPath, count: 3)
        account = segments[0] ?? ""
        first = segments[1]
        rest = segments[2]
        try checkDotSegments(rawPath)
    }

    /// A path in production style: `account` came from the host, and the path names the resource.
    init(_ rawPath: String, accountFromHost account: String) throws(StorageError) {
        let segments = try Self.segments(rawPath, count: 2)
        self.account = account
        first = segments[0]
        rest = segments[1]
        accountInHost = true
        try checkDotSegments(rawPath)
    }

    /// The path of `head` in whichever style names one of `accounts`: path style when its first
    /// segment does (so every existing client is read as before), else production style when the
    /// first label of `Host` does. Neither: the path style, whose unknown account is then refused.
    static func resolve(_ head: RequestHead, accounts: [String]) throws(StorageError) -> ResourcePath {
        let pathStyle = try ResourcePath(head.path)
        if accounts.contains(pathStyle.account) { return pathStyle }
        if let label = hostAccount(head.header("Host")), accounts.contains(label) {
            return try ResourcePath(head.path, accountFromHost: label)
        }
        return pathStyle
    }

    /// The first label of a `Host` header that names an account: a host name with a dot after its
    /// first label (`speakeasy.table.core.windows.net:10002`), not an IP address or `localhost`.
    static func hostAccount(_ host: String?) -> String? {
        guard var host, !host.hasPrefix("[") else { return nil }  // an IPv6 literal
        if let colon = host.lastIndex(of: ":") { host = String(host[..<colon]) }
        guard let dot = host.firstIndex(of: "."), dot > host.startIndex else { return nil }
        if host.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) { return nil }  // IPv4
        return String(host[..<dot]).lowercased()
    }

    /// The base URL the replies name resources under (`Location`, `odata.id`, a listing's
    /// `ServiceEndpoint`), in the style the request came in, without a trailing slash.
    func baseURL(host: String) -> String {
        accountInHost ? "http://\(host)" : "http://\(host)/\(account)"
    }

    /// Up to `count` decoded segments of `rawPath` (the last keeps its slashes); nil where empty.
    private static func segments(_ rawPath: String, count: Int) throws(StorageError) -> [String?] {
        let bytes = Array(rawPath.utf8)
        guard bytes.first == UInt8(ascii: "/") else { throw Self.invalid(rawPath, "it does not start with /") }
        // Cut at the bytes of `/`.
        var segments: [ArraySlice<UInt8>] = []
        var start = 1
        while segments.count < count - 1, let slash = bytes[start...].firstIndex(of: UInt8(ascii: "/")) {
            segments.append(bytes[start..<slash])
            start = slash + 1
        }
        segments.append(bytes[start...])
        var decoded: [String?] = []
        for segment in segments {
            guard !segment.isEmpty else {
                decoded.append(nil)
                continue
            }
            guard let text = segment.withUnsafeBufferPointer(PercentEncoding.decode(utf8:)) else {
                throw Self.invalid(rawPath, "a percent escape is malformed or not UTF-8")
            }
            decoded.append(text)
        }
        while decoded.count < count { decoded.append(nil) }
        return decoded
    }

    /// A dot segment would name another resource once normalised; Azure refuses such URIs.
    private func checkDotSegments(_ rawPath: String) throws(StorageError) {
        let named = [first, rest].compactMap { $0 }
        if named.contains(where: { $0.utf8.contains(UInt8(ascii: ".")) }),
            named.flatMap({ $0.split(separator: "/", omittingEmptySubsequences: false) }).contains(where: {
                $0 == "." || $0 == ".."
            })
        {
            throw Self.invalid(rawPath, "it holds a . or .. segment")
        }
    }

    static func invalid(_ path: String, _ why: String) -> StorageError {
        StorageError(
            .invalidInput,
            account: "",
            "The requested URI does not represent any resource on the server (\(why)).",
            code: "InvalidUri"
        )
    }
}
