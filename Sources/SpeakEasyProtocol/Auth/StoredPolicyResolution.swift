package import SpeakEasyStorage

/// A service SAS that names a stored access policy (`si`), resolved against the policies of the
/// container it reaches; the Table service resolves a table SAS against its table's the same way.
///
/// Azure's rules ("Create a service SAS", "Specify the signed identifier"; "Define a stored access
/// policy"): the policy must exist on that resource; each of start, expiry and permissions may be
/// given by the SAS or by the policy but not by both (403); expiry and permissions must then come
/// from one of them. Azurite fills the same three fields from the policy
/// (src/blob/authentication/BlobSASAuthenticator.ts `validate`).
package struct StoredPolicyResolution: Sendable {
    /// The policy the token names; nil for a token without `si`.
    package let policy: StoredAccessPolicy?
    /// The token with the permissions it grants: its own `sp`, or the policy's.
    package let effective: SharedAccessSignature

    package init(_ token: SharedAccessSignature, policies: [StoredAccessPolicy]) throws(AuthorizationError) {
        func fail(_ detail: String) -> AuthorizationError { AuthorizationError(.authenticationFailed, detail: detail) }
        guard let identifier = token.identifier else {
            policy = nil
            effective = token
            return
        }
        guard token.kind == .blob || token.kind == .table else {
            throw fail("si names a stored access policy, which only a service SAS (sr or tn) can use.")
        }
        guard let policy = policies.first(where: { $0.id == identifier }) else {
            throw fail(
                "The signed identifier '\(identifier.prefix(64))' is not a stored access policy of this resource."
            )
        }
        func given(_ text: String?) -> Bool { !(text ?? "").isEmpty }
        for (name, inToken, inPolicy) in [
            ("st", given(token.start), policy.start != nil), ("se", given(token.expiry), policy.expiry != nil),
            ("sp", given(token.permissions), policy.permission != nil),
        ] where inToken && inPolicy {
            throw fail("\(name) is given by both the SAS and its stored access policy '\(identifier.prefix(64))'.")
        }
        guard given(token.permissions) || policy.permission != nil else {
            throw fail(
                "sp is mandatory: neither the SAS nor its stored access policy '\(identifier.prefix(64))' gives permissions."
            )
        }
        var effective = token
        if let permission = policy.permission { effective.permissions = permission }
        self.policy = policy
        self.effective = effective
    }
}
