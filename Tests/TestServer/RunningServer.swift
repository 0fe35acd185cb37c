import Foundation
package import SpeakEasyData
package import SpeakEasyServer
import TestSupport
import Testing

/// A `serve` running in this process on free loopback ports, over a fresh store.
package struct RunningServer: Sendable {
    package let ports: [StorageService: Int]
    package let store: String

    package func port(_ service: StorageService) -> Int { ports[service]! }

    /// A connection string for the development account at this server, with its key (or `key`), or
    /// with a SAS token instead.
    package func connectionString(key: String = DevelopmentAccount.key, sas: String? = nil) -> String {
        var text = "AccountName=\(DevelopmentAccount.name);"
        text += sas.map { "SharedAccessSignature=\($0);" } ?? "AccountKey=\(key);"
        text += "TableEndpoint=\(DevelopmentAccount.endpoint(.table, port: port(.table)));"
        return text + "BlobEndpoint=\(DevelopmentAccount.endpoint(.blob, port: port(.blob)))"
    }
}

/// Starts a server on a fresh store in a temporary directory, runs `body`, then stops the server.
/// `prepare` gets the store's path first, before the server opens it: to seed it, as a user would.
package func withRunningServer<T: Sendable>(
    configure: (inout ServerConfiguration) -> Void = { _ in },
    prepare: (String) async throws -> Void = { _ in },
    _ body: (RunningServer) async throws -> T
) async throws -> T {
    let started = try await StartedServer.start(configure: configure, prepare: prepare)
    let result: T
    do {
        result = try await body(started.server)
    } catch {
        _ = try? await started.stop()
        throw error
    }
    try await started.stop()
    return result
}

/// A server started for longer than one scope: a test backend that hands out an account and its
/// clean-up separately.
package final class StartedServer: Sendable {
    package let server: RunningServer
    private let directory: String
    private let stopSignal: AsyncStream<Void>.Continuation
    private let task: Task<Void, any Error>

    private init(
        server: RunningServer,
        directory: String,
        stopSignal: AsyncStream<Void>.Continuation,
        task: Task<Void, any Error>
    ) {
        self.server = server
        self.directory = directory
        self.stopSignal = stopSignal
        self.task = task
    }

    /// Starts a server on a fresh store in a new temporary directory.
    package static func start(
        configure: (inout ServerConfiguration) -> Void = { _ in },
        prepare: (String) async throws -> Void = { _ in }
    ) async throws -> StartedServer {
        let directory = try makeTemporaryDirectory()
        do {
            let path = directory + "/serve.sqlite"
            try await prepare(path)
            var configuration = ServerConfiguration()
            configuration.blobPort = 0
            configuration.tablePort = 0
            configuration.logRequests = false
            configure(&configuration)
            let server = try StorageServer(
                account: try StorageLocation.local(path: path).open(readOnly: false),
                configuration: configuration
            )
            let ports = Locked<[StorageService: Int]>([:])
            let (listening, continuation) = AsyncStream<Void>.makeStream()
            let (stopped, stop) = AsyncStream<Void>.makeStream()
            let task = Task {
                // A server that cannot start ends the wait for its ports too.
                defer { continuation.finish() }
                try await server.run(handlingSignals: false, until: { for await _ in stopped {} }) { service, port in
                    let count = ports.withLock {
                        $0[service] = port
                        return $0.count
                    }
                    if count == StorageService.allCases.count { continuation.finish() }
                }
            }
            for await _ in listening {}
            guard ports.withLock({ $0.count }) == StorageService.allCases.count else {
                try await task.value
                throw CancellationError()
            }
            return StartedServer(
                server: RunningServer(ports: ports.withLock { $0 }, store: path),
                directory: directory,
                stopSignal: stop,
                task: task
            )
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Stops the server, waits until it has, and removes its store.
    package func stop() async throws {
        stopSignal.finish()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await task.value
    }
}
