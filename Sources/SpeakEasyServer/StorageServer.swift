import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle
import UnixSignals
package import SpeakEasyProtocol
package import SpeakEasyStorage

/// The Table and Blob services of one storage account, each on its own port, until told to stop.
package struct StorageServer: Sendable {
    package let configuration: ServerConfiguration
    package let account: any StorageAccount

    let authenticator: RequestAuthenticator

    /// Throws when the configuration's key is not an account key (base64).
    package init(account: any StorageAccount, configuration: ServerConfiguration) throws(StorageCredentials.KeyError) {
        self.account = account
        self.configuration = configuration
        authenticator = RequestAuthenticator(credentials: try StorageCredentials(accountName: configuration.accountName, key: configuration.accountKey))
    }

    /// Serves both services until SIGINT or SIGTERM arrives, or `stop` returns; requests in flight
    /// finish first. `onListening` learns each service's bound port (useful with port 0).
    package func run(
        handlingSignals: Bool = true, until stop: @escaping @Sendable () async -> Void = { await Task.never() },
        onListening: @escaping @Sendable (StorageService, Int) async -> Void = { _, _ in }
    ) async throws {
        var logger = Logger(label: "serve")
        // Hummingbird logs connections closed at shutdown as errors; our own request log says what matters.
        logger.logLevel = .critical
        let applications = StorageService.allCases.map { service in
            Application(
                responder: ServiceResponder(service: service, server: self),
                server: .http1(configuration: .init(idleTimeout: .seconds(configuration.idleTimeoutSeconds))),
                configuration: ApplicationConfiguration(
                    address: .hostname(configuration.host, port: service == .blob ? configuration.blobPort : configuration.tablePort),
                    serverName: service.serverHeader,
                    availableConnectionsDelegate: MaximumAvailableConnections(configuration.maxConnections)),
                onServerRunning: { channel in await onListening(service, channel.localAddress?.port ?? 0) },
                logger: logger)
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: applications.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
                gracefulShutdownSignals: handlingSignals ? [.sigterm, .sigint] : [],
                logger: logger))
        // `stop` returning stops the server as a signal does: requests in flight are answered first.
        try await withThrowingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            tasks.addTask {
                await stop()
                await group.triggerGracefulShutdown()
            }
            try await tasks.next()
            tasks.cancelAll()
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
}
