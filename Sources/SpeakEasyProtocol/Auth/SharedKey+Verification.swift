package import SpeakEasyModel

extension SharedKey {
    /// The string to sign of a request for a service and scheme. The Blob service speaks only
    /// SharedKey here (Azurite, too, refuses Blob SharedKeyLite).
    package static func stringToSign(
        _ head: RequestHead,
        service: StorageService,
        scheme: Scheme,
        account: String
    ) throws(AuthorizationError) -> String {
        switch (service, scheme) {
        case (.table, .sharedKey): try tableStringToSign(head, account: account)
        case (.table, .sharedKeyLite): try tableLiteStringToSign(head, account: account)
        case (.blob, .sharedKey): try blobStringToSign(head, account: account)
        case (.blob, .sharedKeyLite):
            throw AuthorizationError(
                .authenticationFailed,
                detail: "SharedKeyLite is not supported by the Blob service; use SharedKey."
            )
        }
    }

    /// The `Authorization` header value for a request the client is about to send (which must
    /// already carry its `x-ms-date` and every other header it will send).
    package static func authorization(
        for head: RequestHead,
        service: StorageService,
        scheme: Scheme = .sharedKey,
        credentials: StorageCredentials
    ) throws(AuthorizationError) -> String {
        let stringToSign = try stringToSign(head, service: service, scheme: scheme, account: credentials.accountName)
        return SharedKeyAuthorization(
            scheme: scheme,
            account: credentials.accountName,
            signature: credentials.sign(stringToSign)
        ).headerValue
    }

    /// Checks a request's Shared Key `Authorization` header against the account's credentials:
    /// the account, the date (present and within 15 minutes of `now`) and the signature, compared in
    /// constant time. Returns the scheme used.
    @discardableResult
    package static func verify(
        _ head: RequestHead,
        service: StorageService,
        credentials: StorageCredentials,
        now: EdmDateTime
    ) throws(AuthorizationError) -> Scheme {
        guard let header = head.header("Authorization") else {
            throw AuthorizationError(.authenticationFailed, detail: "The request has no Authorization header.")
        }
        let authorization = try SharedKeyAuthorization(parsing: header)
        guard authorization.account == credentials.accountName else {
            throw AuthorizationError(
                .authenticationFailed,
                detail:
                    "The account '\(authorization.account.prefix(64))' in the Authorization header is not the account being accessed."
            )
        }
        try checkDate(head, now: now)
        var candidates: [String]
        switch service {
        case .blob:
            candidates = [
                try stringToSign(head, service: service, scheme: authorization.scheme, account: credentials.accountName)
            ]
        case .table:
            // The Table service signs `x-ms-date` when sent, else `Date`; a client that sends both
            // (azure-storage 0.20.3 does) may have signed either, and Azurite prefers `Date`.
            let dates = [head.header("x-ms-date"), head.header("Date")].compactMap { $0 }
            candidates = []
            for date in dates {
                candidates.append(
                    authorization.scheme == .sharedKey
                        ? try tableStringToSign(head, account: credentials.accountName, date: date)
                        : try tableLiteStringToSign(head, account: credentials.accountName, date: date)
                )
            }
        }
        if candidates.contains(where: { credentials.isValidSignature(authorization.signature, for: $0) }) {
            return authorization.scheme
        }
        throw AuthorizationError(
            .authenticationFailed,
            detail:
                "The MAC signature found in the HTTP request '\(authorization.signature.prefix(64))' is not the same as any computed signature. "
                + "Server used following string to sign: '\(candidates[0])'."
        )
    }

    /// A Shared Key request must say when it was made (`x-ms-date`, else `Date`), and that must be
    /// within 15 minutes of the server's clock: a captured request cannot be replayed later.
    static func checkDate(_ head: RequestHead, now: EdmDateTime) throws(AuthorizationError) {
        guard let text = head.header("x-ms-date") ?? head.header("Date") else {
            throw AuthorizationError(.authenticationFailed, detail: "Request date header not specified.")
        }
        guard let date = HTTPDate.parse(text) else {
            throw AuthorizationError(
                .authenticationFailed,
                detail:
                    "The date header '\(text.prefix(64))' is not an RFC 1123 date such as 'Tue, 14 Sep 2021 21:24:20 GMT'."
            )
        }
        guard HTTPDate.isFresh(date, now: now) else {
            let when = date < now ? "too old" : "too far in the future"
            throw AuthorizationError(
                .authenticationFailed,
                detail: "Request date header \(when): '\(text)'. The server's time is '\(HTTPDate.format(now))'."
            )
        }
    }
}
