import Foundation
import TestFixtures
package import SpeakEasyData
package import SpeakEasyServer
import Synchronization
import Testing

/// A `serve` running in this process on free loopback ports, over a fresh store.
package struct RunningServer: Sendable {
    package let ports: [StorageService: Int]
    package let store: String

    package func port(_ service: StorageService) -> Int { ports[service]! }
}

/// Starts a server on a fresh store in a temporary directory, runs `body`, then stops the server.
/// `prepare` gets the store's path first, before the server opens it: to seed it, as a user would.
package func withRunningServer<T: Sendable>(
    configure: (inout ServerConfiguration) -> Void = { _ in }, prepare: (String) async throws -> Void = { _ in },
    _ body: (RunningServer) async throws -> T
) async throws -> T {
    try await withTemporaryDirectory { directory in
        let path = directory + "/serve.sqlite"
        try await prepare(path)
        var configuration = ServerConfiguration()
        configuration.blobPort = 0
        configuration.tablePort = 0
        configuration.logRequests = false
        configure(&configuration)
        let server = try StorageServer(account: try SQLiteStorageAccount(path: path), configuration: configuration)
        let ports = Mutex<[StorageService: Int]>([:])
        let (listening, continuation) = AsyncStream<Void>.makeStream()
        let (stopped, stop) = AsyncStream<Void>.makeStream()
        let task = Task {
            // A server that cannot start ends the wait for its ports too.
            defer { continuation.finish() }
            try await server.run(handlingSignals: false, until: { for await _ in stopped {} }) { service, port in
                let count = ports.withLock { $0[service] = port; return $0.count }
                if count == StorageService.allCases.count { continuation.finish() }
            }
        }
        for await _ in listening {}
        guard ports.withLock({ $0.count }) == StorageService.allCases.count else {
            try await task.value
            throw CancellationError()
        }
        let result: T
        do {
            result = try await body(RunningServer(ports: ports.withLock { $0 }, store: path))
        } catch {
            stop.finish()
            _ = await task.result
            throw error
        }
        stop.finish()
        try await task.value
        return result
    }
}
