package import SpeakEasyProtocol

/// Where an Azure Storage account is and how to prove who we are: each service's endpoint (without
/// a trailing `/`), the account's name, and its key or SAS token. Made from a connection string.
///
/// Plain `http` is allowed only on loopback (Azurite, `serve`) and for the development account:
/// anything else would send a real account's requests, and a SAS token, in the clear.
package struct AzureConnection: Sendable, CustomStringConvertible {
    package let accountName: String
    package let tableEndpoint: String
    package let blobEndpoint: String
    package let credential: ConnectionString.Credential

    package init(_ connectionString: ConnectionString) throws(ConnectionString.ParseError) {
        tableEndpoint = try connectionString.endpoint(.table)
        blobEndpoint = try connectionString.endpoint(.blob)
        credential = try connectionString.credential()
        guard let name = connectionString.accountName ?? Self.pathAccount(tableEndpoint), !name.isEmpty else {
            throw ConnectionString.ParseError(
                setting: "AccountName",
                reason: "is missing, and the endpoints do not name the account"
            )
        }
        accountName = name
        for (setting, endpoint) in [("TableEndpoint", tableEndpoint), ("BlobEndpoint", blobEndpoint)]
        where endpoint.hasPrefix("http://") {
            guard Self.isLoopback(endpoint) || name == DevelopmentAccount.name else {
                throw ConnectionString.ParseError(
                    setting: setting,
                    reason: "is plain http: only loopback endpoints and the development account may go without TLS"
                )
            }
        }
    }

    /// For messages: the account's name and table endpoint (never a secret).
    package var displayName: String { "\(accountName) (\(tableEndpoint))" }

    package func endpoint(_ service: StorageService) -> String {
        service == .table ? tableEndpoint : blobEndpoint
    }

    /// An endpoint URL cut after its scheme: the host (with its port) and the path, which is empty
    /// for a host-style endpoint and `/devstoreaccount1` for a path-style one.
    static func split(_ endpoint: String) -> (host: Substring, path: Substring) {
        guard let scheme = endpoint.firstRange(of: "://") else { return ("", "") }
        let rest = endpoint[scheme.upperBound...]
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        return (rest[..<slash], rest[slash...])
    }

    /// The account in a path-style endpoint (`http://127.0.0.1:10002/devstoreaccount1`).
    private static func pathAccount(_ endpoint: String) -> String? {
        let segment = split(endpoint).path.dropFirst().prefix { $0 != "/" }
        return segment.isEmpty ? nil : String(segment)
    }

    /// Whether the endpoint's host is a loopback address or `localhost`.
    static func isLoopback(_ endpoint: String) -> Bool {
        var host = split(endpoint).host
        if host.hasPrefix("[") { return host.hasPrefix("[::1]") }
        if let colon = host.lastIndex(of: ":") { host = host[..<colon] }
        return host == "localhost" || host.hasPrefix("127.")
    }

    package var description: String {
        let proof: String
        switch credential {
        case .sharedKey: proof = "account key"
        case .sharedAccessSignature: proof = "SAS token"
        case .none: proof = "no credential"
        }
        return "account '\(accountName)' at \(tableEndpoint) and \(blobEndpoint) (\(proof))"
    }
}
