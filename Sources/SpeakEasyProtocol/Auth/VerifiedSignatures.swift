import Synchronization

/// SAS signatures a server has already found valid, with the string each signs.
///
/// A client sends the same token with every request, and its HMAC need not be computed again each
/// time. Only the signature check is remembered: the time window, protocol, permissions and resource
/// are still checked on every request. The set is keyed by signature and string to sign together,
/// under the standard library's per-process random hash seed, so a lookup tells a client nothing it
/// could use to forge one; past `capacity` entries it starts again empty.
package final class VerifiedSignatures: Sendable {
    private let known = Mutex<Set<String>>([])
    static let capacity = 4096

    package init() {}

    package func isValid(_ signature: String, for stringToSign: String, credentials: StorageCredentials) -> Bool {
        let entry = signature + "\n" + stringToSign
        if known.withLock({ $0.contains(entry) }) { return true }
        guard credentials.isValidSignature(signature, for: stringToSign) else { return false }
        known.withLock { known in
            if known.count >= Self.capacity { known.removeAll() }
            known.insert(entry)
        }
        return true
    }
}
