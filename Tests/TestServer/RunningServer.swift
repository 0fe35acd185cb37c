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
package func withRunningServer<T: Sendable>(
    configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (RunningServer) async throws -> T
) async throws -> T {
    try await withTemporaryDirectory { directory in
        let path = directory + "/serve.sqlite"
        var configuration = ServerConfiguration()
        configuration.blobPort = 0
        configuration.tablePort = 0
        configuration.logRequests = false
        configure(&configuration)
        let server = StorageServer(account: try SQLiteStorageAccount(path: path), configuration: configuration)
        let ports = Mutex<[StorageService: Int]>([:])
        let (listening, continuation) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await server.run(handlingSignals: false) { service, port in
                let count = ports.withLock { $0[service] = port; return $0.count }
                if count == StorageService.allCases.count { continuation.finish() }
            }
        }
        for await _ in listening {}
        defer { task.cancel() }
        let result = try await body(RunningServer(ports: ports.withLock { $0 }, store: path))
        task.cancel()
        _ = await task.result
        return result
    }
}
