package import SpeakEasyModel
package import SpeakEasyStorage

/// How a request proved its right to be served.
package enum RequestAuthentication: Sendable, Equatable {
    /// A valid Shared Key (or, for tables, SharedKeyLite) signature: the account's full rights.
    case sharedKey(SharedKey.Scheme)
    /// A valid SAS: the server asks the grant, per operation (and per entity for a table SAS).
    case sharedAccessSignature(SASGrant)
    /// Neither an `Authorization` header nor a `sig`: the server decides by the container's public
    /// access (tables have none, so a table request is refused).
    case anonymous
}

/// The server's entry point to authentication: one request, one decision.
package struct RequestAuthenticator: Sendable {
    package let credentials: StorageCredentials
    private let verifiedTokens = VerifiedTokens()

    package init(credentials: StorageCredentials) { self.credentials = credentials }

    /// Decides how `head` is authenticated, or throws the error to answer with.
    ///
    /// An `Authorization` header is checked as Shared Key (the Table service accepts SharedKey and
    /// SharedKeyLite, the Blob service SharedKey), its date within 15 minutes of `now`; otherwise a
    /// query with `sig` is checked as a SAS for `target`; otherwise the request is anonymous.
    ///
    /// - Parameters:
    ///   - target: the resource the request reaches, as the server routed it (a SAS must cover it).
    ///   - sourceIP: the client's address, for a SAS with `sip`.
    ///   - isHTTPS: whether the request came over TLS.
    ///   - policies: the stored access policies of the container (or table) reached, for a SAS with
    ///     `si`; see ``namesStoredPolicy(_:)``.
    package func authenticate(
        _ head: RequestHead,
        service: StorageService,
        target: SASTarget,
        now: EdmDateTime,
        sourceIP: String? = nil,
        isHTTPS: Bool = false,
        policies: [StoredAccessPolicy] = []
    ) throws(AuthorizationError) -> RequestAuthentication {
        if head.header("Authorization") != nil {
            return .sharedKey(try SharedKey.verify(head, service: service, credentials: credentials, now: now))
        }
        let key = VerifiedTokens.Key(
            query: head.query,
            service: service,
            target: target,
            sourceIP: sourceIP,
            isHTTPS: isHTTPS
        )
        if let grant = verifiedTokens.grant(for: key, now: now) { return .sharedAccessSignature(grant) }
        let query: QueryItems
        do { query = try head.queryItems.get() } catch {
            throw AuthorizationError(
                .authenticationFailed,
                detail: "The request's query cannot be decoded: \(error.description)."
            )
        }
        guard SharedAccessSignature.isPresent(in: query) else { return .anonymous }
        let token = try SharedAccessSignature(query: query)
        let grant = try token.verify(
            credentials: credentials,
            service: service,
            target: target,
            now: now,
            sourceIP: sourceIP,
            isHTTPS: isHTTPS,
            policies: policies
        )
        // A token resolved through a stored policy is checked every time: the policy may change.
        if token.identifier == nil { verifiedTokens.remember(grant, for: key) }
        return .sharedAccessSignature(grant)
    }

    /// Whether the request carries a SAS that names a stored access policy, which the server must
    /// then look up and pass to ``authenticate(_:service:target:now:sourceIP:isHTTPS:policies:)``.
    package static func namesStoredPolicy(_ head: RequestHead) -> Bool {
        guard head.header("Authorization") == nil, let query = try? head.queryItems.get() else { return false }
        return SharedAccessSignature.isPresent(in: query) && query.items.contains { $0.name.lowercased() == "si" }
    }
}
