import Foundation
import SpeakEasyAccounts
import SpeakEasyCore
import SpeakEasyProtocol
package import SpeakEasyServer
import SpeakEasyStorage

/// Azure's Table and Blob protocol on loopback, inside your process: `serve` as a value, for tests.
///
/// It answers the development account (`devstoreaccount1` and its well-known key) on free ports, so
/// tests can run side by side, over a SQLite file that holds a million rows as easily as ten. Any
/// Azure SDK or tool reaches it by ``connectionString``, and so does ``Store``:
///
/// ```swift
/// let server = try await LocalStorageServer.start(store: .temporary)
/// let store = try Store(server.connectionString)
/// try await store.createTable("Events")
/// // …
/// try await server.stop()
/// ```
///
/// ``stop()`` lets the requests in flight finish, closes the ports and, for a ``Location/temporary``
/// store, deletes it. A server no longer referenced stops by itself; ``withRunning(store:isolation:_:)`` stops it
/// when its body returns.
public final class LocalStorageServer: Sendable {
    /// Where the server keeps what clients write.
    public enum Location: Sendable, Hashable {
        /// A new store in a temporary directory, deleted when the server stops.
        case temporary
        /// The local account file at a path, as `--store` names one: created when missing, kept after
        /// the server stops.
        case file(String)
    }

    /// The port of the Table service on 127.0.0.1.
    public let tablePort: Int
    /// The port of the Blob service on 127.0.0.1.
    public let blobPort: Int
    /// The port of the read-only browser view of the account on 127.0.0.1, as `serve` shows it:
    /// tables, partitions, entities, photos and `validate`'s findings. It needs no key, shows none,
    /// and changes nothing; see ``uiEndpoint``.
    public let uiPort: Int
    /// The account name the server answers: the development account's, `devstoreaccount1`.
    public let accountName: String
    /// The account's key, for Shared Key signing: the development account's well-known key.
    public let accountKey: String

    private let stopSignal: AsyncStream<Void>.Continuation
    private let task: Task<Void, any Error>

    private init(
        ports: [ServedPort: Int],
        configuration: ServerConfiguration,
        stopSignal: AsyncStream<Void>.Continuation,
        task: Task<Void, any Error>
    ) {
        tablePort = ports[.service(.table)] ?? 0
        blobPort = ports[.service(.blob)] ?? 0
        uiPort = ports[.ui] ?? 0
        accountName = configuration.accountName
        accountKey = configuration.accountKey
        self.stopSignal = stopSignal
        self.task = task
    }

    deinit { stopSignal.finish() }

    /// The Table service's endpoint, path style: `http://127.0.0.1:PORT/devstoreaccount1`.
    public var tableEndpoint: String { DevelopmentAccount.endpoint(.table, port: tablePort) }
    /// The Blob service's endpoint, path style: `http://127.0.0.1:PORT/devstoreaccount1`.
    public var blobEndpoint: String { DevelopmentAccount.endpoint(.blob, port: blobPort) }

    /// The browser view's address, `http://127.0.0.1:PORT/`, for a person (or a headless browser) to
    /// open.
    public var uiEndpoint: String { "http://\(AccountView.host):\(uiPort)/" }

    /// A connection string with the account's name, key and both endpoints, as the Azure SDKs, the
    /// Azure CLI and ``Store/init(_:environment:readOnly:)`` read it.
    public var connectionString: String {
        "DefaultEndpointsProtocol=http;AccountName=\(accountName);AccountKey=\(accountKey);"
            + "TableEndpoint=\(tableEndpoint);BlobEndpoint=\(blobEndpoint);"
    }

    /// Starts a server and returns once both services and the browser view listen.
    ///
    /// - Parameters:
    ///   - store: where the data goes; a ``Location/temporary`` store by default.
    ///   - tablePort: the Table service's port; 0 (the default) picks a free one.
    ///   - blobPort: the Blob service's port; 0 (the default) picks a free one.
    /// - Throws: ``StorageError`` when the store cannot be created or opened; ``ListenError``, naming
    ///   the port, when a port is taken.
    public static func start(
        store: Location = .temporary,
        tablePort: Int = 0,
        blobPort: Int = 0
    ) async throws -> LocalStorageServer {
        // A port out of range would otherwise reach the socket layer: an error of another module's
        // type, or a port taken modulo 65,536.
        for (service, port) in [("table", tablePort), ("blob", blobPort)] where !(0...65_535).contains(port) {
            throw ListenError(
                message: "cannot listen on the \(service) port \(port): a port is 0 (any free one) to 65535"
            )
        }
        return try await start(store: store) { configuration in
            configuration.tablePort = tablePort
            configuration.blobPort = blobPort
        }
    }

    /// Starts a server, runs `body` with it, and stops it when `body` returns or throws.
    ///
    /// ```swift
    /// try await LocalStorageServer.withRunning { server in
    ///     let store = try Store(server.connectionString)
    ///     try await store.createTable("Speakers")
    /// }
    /// ```
    ///
    /// `body` runs in the caller's isolation (on the main actor, when called from there), so it may use
    /// what the caller holds, and its result need not be `Sendable`.
    ///
    /// - Throws: what ``start(store:tablePort:blobPort:)`` and ``stop()`` throw, and what `body` throws.
    public static func withRunning<Result>(
        store: Location = .temporary,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (LocalStorageServer) async throws -> Result
    ) async throws -> Result {
        let server = try await start(store: store)
        let result: Result
        do {
            result = try await body(server)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
        return result
    }

    /// Stops the server: requests in flight finish, the ports close, and a temporary store is deleted.
    /// Returns when all of that is done; stopping again does nothing.
    public func stop() async throws {
        stopSignal.finish()
        try await task.value
    }

    /// ``start(store:tablePort:blobPort:)`` with every setting of `serve` (the tests' faults and
    /// limits): `configure` gets the settings with every port 0 (the browser view's too), request
    /// logging off, and an event loop of the server's own. A configuration without the view (`uiPort`
    /// nil) leaves ``uiPort`` 0.
    package static func start(
        store: Location,
        configure: (inout ServerConfiguration) -> Void
    ) async throws -> LocalStorageServer {
        let (path, directory) = try storePath(store)
        var configuration = ServerConfiguration()
        configuration.blobPort = 0
        configuration.tablePort = 0
        configuration.uiPort = 0
        configuration.logRequests = false
        // Loops of its own: the process's shared ones carry its clients' work, and perhaps other
        // servers'. A thread per core, as serve has: with one, 16 batches of a seed at once under
        // ThreadSanitizer queued past the client's 60 s, and were tried again.
        configuration.eventLoopThreads = ProcessInfo.processInfo.activeProcessorCount
        configure(&configuration)
        let ports = Locked<[ServedPort: Int]>([:])
        let expected = StorageService.allCases.count + (configuration.uiPort == nil ? 0 : 1)
        let (listening, listened) = AsyncStream<Void>.makeStream()
        let (stopped, stop) = AsyncStream<Void>.makeStream()
        let task = Task { [configuration] in
            // A server that cannot start ends the wait for its ports too; a temporary store goes
            // with the server, however it ends.
            defer {
                listened.finish()
                if let directory { try? FileManager.default.removeItem(atPath: directory) }
            }
            try await StorageServer.run(
                configuration: configuration,
                handlingSignals: false,
                until: { for await _ in stopped {} },
                onListening: { served, port in
                    let count = ports.withLock {
                        $0[served] = port
                        return $0.count
                    }
                    if count == expected { listened.finish() }
                },
                server: {
                    try StorageServer(
                        account: try StorageLocation.local(path: path).open(readOnly: false),
                        configuration: configuration
                    )
                }
            )
        }
        for await _ in listening {}
        let bound = ports.withLock { $0 }
        guard bound.count == expected else {
            stop.finish()
            try await task.value
            throw CancellationError()
        }
        return LocalStorageServer(ports: bound, configuration: configuration, stopSignal: stop, task: task)
    }

    /// The store's file, and the temporary directory to delete afterwards (nil: keep it).
    private static func storePath(_ store: Location) throws(StorageError) -> (path: String, directory: String?) {
        switch store {
        case .file(let path): return (path, nil)
        case .temporary:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("speakeasy-serve-\(UUID().uuidString)").path
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StorageError(.unavailable, account: directory, "cannot create a temporary store: \(error)")
            }
            return (directory + "/store.sqlite", directory)
        }
    }
}
