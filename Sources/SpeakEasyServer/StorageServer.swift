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

    package init(account: any StorageAccount, configuration: ServerConfiguration) {
        self.account = account
        self.configuration = configuration
    }

    /// Serves both services until the task is cancelled or SIGINT/SIGTERM arrives; requests in
    /// flight finish first. `onListening` learns each service's bound port (useful with port 0).
    package func run(
        handlingSignals: Bool = true, onListening: @escaping @Sendable (StorageService, Int) async -> Void = { _, _ in }
    ) async throws {
        var logger = Logger(label: "serve")
        logger.logLevel = .warning
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
        try await group.run()
    }
}

extension StorageServer {
    /// Whether a request proves it acts for the account (Shared Key or SAS); others are anonymous.
    func isAuthenticated(_ head: RequestHead) -> Bool {
        false
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
