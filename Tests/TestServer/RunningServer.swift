import Foundation
package import SpeakEasyData
package import SpeakEasyServer
import TestSupport
import Testing

/// A `serve` running in this process on free loopback ports, over a fresh store.
package struct RunningServer: Sendable {
    package let ports: [StorageService: Int]
    package let store: String
    /// The browser view's port (0 when the configuration serves none).
    package let uiPort: Int

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
/// clean-up separately. The library's ``LocalStorageServer`` over a store in a temporary directory of
/// its own, which `prepare` may fill first.
package final class StartedServer: Sendable {
    package let server: RunningServer
    private let directory: String
    private let local: LocalStorageServer

    private init(server: RunningServer, directory: String, local: LocalStorageServer) {
        self.server = server
        self.directory = directory
        self.local = local
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
            let local = try await LocalStorageServer.start(store: .file(path), configure: configure)
            return StartedServer(
                server: RunningServer(
                    ports: [.table: local.tablePort, .blob: local.blobPort],
                    store: path,
                    uiPort: local.uiPort
                ),
                directory: directory,
                local: local
            )
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Stops the server, waits until it has, and removes its store.
    package func stop() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await local.stop()
    }
}
