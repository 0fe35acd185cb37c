import SpeakEasyCore
package import SpeakEasyModel

/// SAS tokens a server has already verified, with what each granted.
///
/// A client sends the same token with every request, and reading it, building its string to sign and
/// computing the HMAC again each time came to a tenth of a point read. What verification decides
/// depends only on the token's exact text, the service, the resource, the client's address and the
/// protocol, besides the time; so a token is remembered under those, and only its time window is
/// checked again. Past `capacity` tokens the memory starts again empty.
package final class VerifiedTokens: Sendable {
    struct Key: Hashable {
        var query: String
        var service: StorageService
        var target: SASTarget
        /// The client's address: a token with `sip` holds for some addresses only.
        var sourceIP: String?
        var isHTTPS: Bool
    }

    private struct Verified {
        var grant: SASGrant
        var start: EdmDateTime?
        var expiry: EdmDateTime
    }

    private let known = Locked<[Key: Verified]>([:])
    static let capacity = 4096

    package init() {}

    /// The grant of a token verified before, if `now` is still within its time window.
    func grant(for key: Key, now: EdmDateTime) -> SASGrant? {
        guard let verified = known.withLock({ $0[key] }), now <= verified.expiry,
            verified.start.map({ now >= $0 }) != false
        else { return nil }
        return verified.grant
    }

    /// Remembers a grant that verification returned.
    func remember(_ grant: SASGrant, for key: Key) {
        guard let expiry = grant.signature.expiry.flatMap(SASTime.parse) else { return }
        let start = grant.signature.start.flatMap { $0.isEmpty ? nil : SASTime.parse($0) }
        known.withLock { known in
            if known.count >= Self.capacity { known.removeAll() }
            known[key] = Verified(grant: grant, start: start, expiry: expiry)
        }
    }
}
