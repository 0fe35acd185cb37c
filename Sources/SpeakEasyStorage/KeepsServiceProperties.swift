/// An account that keeps its services' properties documents itself, so that a server on it can
/// answer Get and Set Service Properties. The local account is one; a remote account has them in
/// Azure, which a server never stands in front of, so it is not.
package protocol KeepsServiceProperties: StorageAccount {
    /// The document last set for `service` (`table`, `blob`); nil when never set.
    func serviceProperties(_ service: String) async throws -> [UInt8]?
    /// Keeps `document` as `service`'s properties, replacing what was there.
    func setServiceProperties(_ service: String, _ document: [UInt8]) async throws
}
