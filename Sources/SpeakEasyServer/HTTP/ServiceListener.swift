import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A service's listening socket and its open connections: at most `maxConnections` at once (more
/// wait in the backlog to be accepted), and a stop that lets the requests in flight finish.
final class ServiceListener: Sendable {
    private let channel: any Channel
    private let connections: Connections

    var port: Int { channel.localAddress?.port ?? 0 }

    static func bind(
        host: String, port: Int, maxConnections: Int, idleTimeoutSeconds: Int64, maxBodySize: Int, serverHeader: String,
        respond: @escaping ServiceConnectionHandler.Responder
    ) async throws -> ServiceListener {
        let connections = Connections(limit: maxConnections)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Replies are written whole; waiting to fill a segment would only delay them.
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                connections.opened(channel)
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    // Headers come from HTTPFields, which checked them already.
                    try pipeline.configureHTTPServerPipeline(withPipeliningAssistance: true, withErrorHandling: true, withOutboundHeaderValidation: false)
                    try pipeline.addHandler(IdleStateHandler(allTimeout: .seconds(idleTimeoutSeconds)))
                    try pipeline.addHandler(ServiceConnectionHandler(maxBodySize: maxBodySize, serverHeader: serverHeader, respond: respond))
                }
            }
            .bind(host: host, port: port).get()
        return ServiceListener(channel: channel, connections: connections)
    }

    private init(channel: any Channel, connections: Connections) {
        self.channel = channel
        self.connections = connections
    }

    /// Stops accepting, closes the idle connections and each busy one once its reply is written,
    /// and returns when all are closed.
    func stop() async {
        try? await channel.close()
        let open = connections.all()
        for connection in open { connection.pipeline.fireUserInboundEventTriggered(ServiceConnectionHandler.Quiesce()) }
        for connection in open { try? await connection.closeFuture.get() }
    }

    /// The open connections; accepting pauses while `limit` are open.
    private final class Connections: Sendable {
        private let open = Mutex<[ObjectIdentifier: any Channel]>([:])
        private let limit: Int

        init(limit: Int) { self.limit = limit }

        func opened(_ channel: any Channel) {
            let count = open.withLock { open in
                open[ObjectIdentifier(channel)] = channel
                return open.count
            }
            if count >= limit { channel.parent?.setOption(.autoRead, value: false).whenComplete { _ in } }
            channel.closeFuture.whenComplete { _ in
                let count = self.open.withLock { open in
                    open[ObjectIdentifier(channel)] = nil
                    return open.count
                }
                if count == self.limit - 1 { channel.parent?.setOption(.autoRead, value: true).whenComplete { _ in } }
            }
        }

        func all() -> [any Channel] { open.withLock { Array($0.values) } }
    }
}
