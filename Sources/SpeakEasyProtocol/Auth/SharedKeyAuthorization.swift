/// An `Authorization` header of Shared Key: `SharedKey account:signature` or
/// `SharedKeyLite account:signature`.
package struct SharedKeyAuthorization: Sendable, Equatable, CustomStringConvertible {
    package var scheme: SharedKey.Scheme
    package var account: String
    /// Base64 of the HMAC-SHA256, as sent.
    package var signature: String

    package init(scheme: SharedKey.Scheme, account: String, signature: String) {
        self.scheme = scheme
        self.account = account
        self.signature = signature
    }

    /// Parses a header value. Anything else than `Scheme account:signature` with a known scheme, a
    /// non-empty account and a non-empty signature is InvalidAuthenticationInfo (400), as Azure
    /// answers a header it cannot read.
    package init(parsing value: String) throws(AuthorizationError) {
        // A real header is ~70 bytes; a huge one is refused before any work is done on it.
        guard value.utf8.count <= 1024 else {
            throw AuthorizationError(
                .invalidAuthenticationInfo,
                detail: "The Authorization header is \(value.utf8.count) bytes long."
            )
        }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw AuthorizationError(
                .invalidAuthenticationInfo,
                detail: "The Authorization header is not 'SharedKey account:signature'."
            )
        }
        guard let scheme = SharedKey.Scheme(rawValue: String(parts[0])) else {
            throw AuthorizationError(
                .invalidAuthenticationInfo,
                detail:
                    "The authentication scheme '\(parts[0].prefix(40))' is not supported; use SharedKey or SharedKeyLite."
            )
        }
        let credential = parts[1]
        guard let colon = credential.firstIndex(of: ":"), colon != credential.startIndex,
            credential.index(after: colon) != credential.endIndex
        else {
            throw AuthorizationError(
                .invalidAuthenticationInfo,
                detail: "The Authorization header is not '\(scheme.rawValue) account:signature'."
            )
        }
        self.init(
            scheme: scheme,
            account: String(credential[..<colon]),
            signature: String(credential[credential.index(after: colon)...])
        )
    }

    /// The header value: `SharedKey account:signature`.
    package var headerValue: String { "\(scheme.rawValue) \(account):\(signature)" }

    package var description: String { "\(scheme.rawValue) \(account):…" }
}
