import SpeakEasyProtocol

/// How `serve` serves a store: where it listens and under which account.
package struct ServerConfiguration: Sendable {
    package var host = DevelopmentAccount.host
    /// 0 picks a free port.
    package var blobPort = StorageService.blob.developmentPort
    package var tablePort = StorageService.table.developmentPort
    package var accountName = DevelopmentAccount.name
    /// Other names the account answers to in paths: the local store's own account name, which the
    /// photo URLs that `seed` writes carry, so that they open as they are.
    package var accountAliases: [String] = []
    /// The account key, base64 as Azure gives it.
    package var accountKey = DevelopmentAccount.key
    /// Entities a query page holds at most (Azure: 1,000).
    package var pageSize = 1000
    /// Log a line per request on standard error.
    package var logRequests = true
    /// Faults answered on purpose (`--faults`).
    package var faults = FaultPlan.none
    /// Added to every reply (`--latency`).
    package var latencyMilliseconds = 0
    /// Connections open at once, per service; more wait to be accepted.
    package var maxConnections = 512
    /// A connection with nothing sent or received for this long is closed.
    package var idleTimeoutSeconds: Int64 = 60

    package init() {}
}
