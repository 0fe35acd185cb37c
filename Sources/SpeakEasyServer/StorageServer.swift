import SpeakEasyCore
package import SpeakEasyProtocol
package import SpeakEasyStorage
import UnixSignals

/// The Table and Blob services of one storage account, each on its own port, until told to stop.
package struct StorageServer: Sendable {
    package let configuration: ServerConfiguration
    package let account: any StorageAccount

    let authenticator: RequestAuthenticator
    /// The browser view's last `validate` run on the account (``AccountView``).
    let validationRuns = ValidationRuns()

    /// Throws when the configuration's key is not an account key (base64).
    package init(account: any StorageAccount, configuration: ServerConfiguration) throws(StorageCredentials.KeyError) {
        self.account = account
        self.configuration = configuration
        authenticator = RequestAuthenticator(
            credentials: try StorageCredentials(accountName: configuration.accountName, key: configuration.accountKey)
        )
    }

    /// Serves both services, and the browser view unless the configuration turns it off, until SIGINT
    /// or SIGTERM arrives, or `stop` returns; requests in flight finish first. `onListening` learns
    /// each bound port (useful with port 0), the services' first and the view's last.
    package func run(
        handlingSignals: Bool = true,
        until stop: @escaping @Sendable () async -> Void = { await Task.never() },
        onListening: @escaping @Sendable (ServedPort, Int) async -> Void = { _, _ in }
    ) async throws {
        try await Self.run(
            configuration: configuration,
            handlingSignals: handlingSignals,
            until: stop,
            onListening: onListening
        ) { self }
    }

    /// As ``run(handlingSignals:until:onListening:)``, with the server made by `make` only once every
    /// port is bound: a port that cannot be listened on then fails the run before `make` opens (and
    /// perhaps creates or changes) the store.
    package static func run(
        configuration: ServerConfiguration,
        handlingSignals: Bool = true,
        until stop: @escaping @Sendable () async -> Void = { await Task.never() },
        onListening: @escaping @Sendable (ServedPort, Int) async -> Void = { _, _ in },
        server make: () throws -> StorageServer
    ) async throws {
        // Trapped before the sockets open, so that a signal from then on stops the server cleanly.
        let signals = handlingSignals ? await UnixSignalsSequence(trapping: .sigterm, .sigint) : nil
        // Set before the listeners accept anything, so every request finds it.
        let made = Locked<StorageServer?>(nil)
        var listeners: [(ServedPort, ServiceListener)] = []
        let loops = ServerLoops(threads: configuration.eventLoopThreads)
        // One budget for both services: what bounds memory is the bodies held in all.
        let budget = BodyBudget(limit: configuration.maxBufferedBodyBytes)
        do {
            for service in StorageService.allCases {
                listeners.append(
                    (
                        .service(service),
                        try await ServiceListener.bind(
                            on: loops,
                            host: configuration.host,
                            port: service == .blob ? configuration.blobPort : configuration.tablePort,
                            maxConnections: configuration.maxConnections,
                            idleTimeoutSeconds: configuration.idleTimeoutSeconds,
                            limits: ConnectionLimits(configuration, service: service, budget: budget),
                            serverHeader: service.serverHeader,
                            service: .answering(service, of: { made.withLock { $0 } })
                        )
                    )
                )
            }
            // Last, so that its line follows the services' (scripts read the first two).
            if let port = configuration.uiPort {
                listeners.append(
                    (
                        .ui,
                        try await ServiceListener.bind(
                            on: loops,
                            host: AccountView.host,
                            port: port,
                            maxConnections: AccountView.maxConnections,
                            idleTimeoutSeconds: configuration.idleTimeoutSeconds,
                            limits: ConnectionLimits(
                                configuration,
                                maxBodySize: AccountView.maxBodySize,
                                budget: budget
                            ),
                            serverHeader: AccountView.serverHeader,
                            service: .accountView(of: { made.withLock { $0 } })
                        )
                    )
                )
            }
            let server = try make()
            made.withLock { $0 = server }
            for (_, listener) in listeners { listener.start() }
        } catch {
            for (_, listener) in listeners { await listener.stop() }
            await loops.close()
            throw error
        }
        for (served, listener) in listeners { await onListening(served, listener.port) }
        // Whichever comes first: `stop` returning, a signal, or this task's cancellation.
        await withTaskGroup { waits in
            waits.addTask { await stop() }
            if let signals { waits.addTask { for await _ in signals { return } } }
            await waits.next()
            waits.cancelAll()
        }
        await withTaskGroup { stops in
            for (_, listener) in listeners { stops.addTask { await listener.stop() } }
        }
        await loops.close()
    }
}

/// What listens on one of the server's ports: a service, or the browser view of the account.
package enum ServedPort: Hashable, Sendable {
    case service(StorageService)
    case ui

    /// The word `serve` prints before the port's URL: `blob`, `table`, `ui`.
    package var name: String {
        switch self {
        case .service(let service): service.rawValue
        case .ui: "ui"
        }
    }
}

extension Task where Success == Never, Failure == Never {
    /// Waits until the task is cancelled.
    static func never() async {
        let (stream, _) = AsyncStream<Void>.makeStream()
        for await _ in stream {}
    }
}

extension StorageService {
    /// Azure's `Server` header for the service.
    var serverHeader: String {
        switch self {
        case .blob: "Windows-Azure-Blob/1.0 Microsoft-HTTPAPI/2.0"
        case .table: "Windows-Azure-Table/1.0 Microsoft-HTTPAPI/2.0"
        }
    }

    /// The most a connection keeps of a request's body: the largest any of the service's operations
    /// accepts (each checks its own limit).
    var maxBodySize: Int {
        switch self {
        case .blob: BlobService.maxBodySize
        case .table: TableService.maxBodySize
        }
    }
}
