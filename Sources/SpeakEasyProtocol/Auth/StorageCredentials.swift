internal import Crypto
package import SpeakEasyModel

/// A storage account's name and key: what signs Shared Key requests and SAS tokens, and what checks
/// them.
///
/// The key is decoded from base64 once, here, so a bad key fails when the credentials are made (with
/// a message that names the account, never the key) instead of on the first request. The
/// description never shows the key.
package struct StorageCredentials: Sendable, CustomStringConvertible {
    /// Why a key cannot be used.
    package struct KeyError: Error, Sendable, Equatable, CustomStringConvertible {
        package let accountName: String
        package let reason: String

        package var description: String { "the key of account '\(accountName)' \(reason)" }
    }

    package let accountName: String
    // Plain bytes (Sendable); the SymmetricKey is made per use, which costs a copy of 64 bytes.
    private let key: [UInt8]

    /// - Parameter key: the account key as the portal and connection strings give it, base64.
    package init(accountName: String, key: String) throws(KeyError) {
        guard !key.isEmpty else { throw KeyError(accountName: accountName, reason: "is empty") }
        guard let bytes = Base64.decode(key) else {
            throw KeyError(accountName: accountName, reason: "is not valid base64 (\(key.utf8.count) characters)")
        }
        self.accountName = accountName
        self.key = bytes
    }

    /// The development account (`devstoreaccount1` and its published key).
    package static let development: StorageCredentials = {
        do { return try StorageCredentials(accountName: DevelopmentAccount.name, key: DevelopmentAccount.key) } catch {
            fatalError("the published development key is valid base64: \(error)")
        }
    }()

    /// Base64 of HMAC-SHA256 over the UTF-8 of `stringToSign`: the signature of Shared Key and SAS.
    package func sign(_ stringToSign: String) -> String {
        Base64.encode(
            Array(HMAC<SHA256>.authenticationCode(for: Array(stringToSign.utf8), using: SymmetricKey(data: key)))
        )
    }

    /// Whether `signature` (base64, as a request carries it) signs `stringToSign`. The comparison
    /// takes the same time wherever the bytes first differ, so a client cannot find a valid signature
    /// byte by byte from response times.
    package func isValidSignature(_ signature: String, for stringToSign: String) -> Bool {
        guard let bytes = Base64.decode(signature), bytes.count == SHA256.byteCount else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(
            bytes,
            authenticating: Array(stringToSign.utf8),
            using: SymmetricKey(data: key)
        )
    }

    package var description: String { "account '\(accountName)' (key hidden)" }
}
