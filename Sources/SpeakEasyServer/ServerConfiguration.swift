import SpeakEasyProtocol

/// How `serve` serves a store: where it listens and under which account.
package struct ServerConfiguration: Sendable {
    package var host = DevelopmentAccount.host
    /// 0 picks a free port.
    package var blobPort = StorageService.blob.developmentPort
    package var tablePort = StorageService.table.developmentPort
    /// The read-only browser view's port on 127.0.0.1 (``AccountView``; 0 picks a free one); nil
    /// serves none.
    package var uiPort: Int? = AccountView.developmentPort
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
    /// Connections open at once, per service. At the bound, a new connection closes the one that has
    /// been idle between requests the longest; when every one is busy, new ones wait to be accepted.
    package var maxConnections = 512
    /// A connection with nothing sent or received for this long is closed.
    package var idleTimeoutSeconds: Int64 = 60

    /// The request bodies buffered at once, in bytes, across every connection of both services: a
    /// body that cannot have its share is refused with 503 ServerBusy (``BodyBudget``). Twice the
    /// largest body an operation takes (a 64 MiB Put Blob).
    package var maxBufferedBodyBytes = 128 << 20
    /// A request's head holds at most this many header fields, and this many bytes of them (names,
    /// values and separators); beyond either, 431.
    package var maxHeaderCount = 200
    package var maxHeaderBytes = 64 << 10
    /// How slowly a body may come (``BodyDeadline``): after `bodyGraceSeconds` from its head, a request
    /// must have sent `minBodyBytesPerSecond` bytes for every second past the grace, or it is cut off.
    package var bodyGraceSeconds: Int64 = 10
    package var minBodyBytesPerSecond = 1024
    /// The event loops that answer requests (``ServerLoops``): nil, the process's shared ones, as
    /// `serve` uses them; a number, that many threads of the server's own, for a server inside a
    /// process that does other work.
    package var eventLoopThreads: Int?

    package init() {}
}
