import NIOCore
import NIOHTTP1
import NIOPosix
import SpeakEasyCore

/// A service's listening socket and its open connections (``OpenConnections``: at most
/// `maxConnections` at once, the longest idle giving way to a new one), and a stop that lets the
/// requests in flight finish.
final class ServiceListener: Sendable {
    private let channel: any Channel
    private let connections: OpenConnections

    var port: Int { channel.localAddress?.port ?? 0 }

    static func bind(
        on loops: ServerLoops,
        host: String,
        port: Int,
        maxConnections: Int,
        idleTimeoutSeconds: Int64,
        limits: ConnectionLimits,
        serverHeader: String,
        service: ServiceCalls
    ) async throws -> ServiceListener {
        let connections = OpenConnections(limit: maxConnections)
        let bootstrap = ServerBootstrap(group: loops.group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Nothing is accepted until ``start()``: the port is held, and the server gets ready.
            .serverChannelOption(.autoRead, value: false)
            // Replies are written whole; waiting to fill a segment would only delay them.
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                let stopping = connections.opened(channel)
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try pipeline.addHandler(IdleStateHandler(allTimeout: .seconds(idleTimeoutSeconds)))
                    try pipeline.addHandler(
                        ServiceConnectionHandler(
                            limits: limits,
                            serverHeader: serverHeader,
                            quiescing: stopping,
                            connections: connections,
                            loops: loops,
                            service: service
                        )
                    )
                }
            }
        do {
            return ServiceListener(
                channel: try await bootstrap.bind(host: host, port: port).get(),
                connections: connections
            )
        } catch let error as IOError {
            throw ListenError(message: SocketFailure.listening(on: host, port: port, errno: error.errnoCode))
        } catch is SocketAddressError {
            throw ListenError(message: "cannot listen on \(host): not an IP address or a name of this machine")
        }
    }

    private init(channel: any Channel, connections: OpenConnections) {
        self.channel = channel
        self.connections = connections
    }

    /// Starts accepting connections on the bound port. Not awaited: the channel's event loop runs
    /// the change before anything later asked of the channel (a stop), and a connection made before
    /// it waits in the backlog. (Awaiting a future that completes at once, as this one does, is the
    /// one place ThreadSanitizer reported a race inside Swift's continuation runtime, which it cannot
    /// see into.) It fails only on a closed channel, which accepts nothing anyway.
    func start() {
        channel.setOption(.autoRead, value: true).whenFailure { _ in }
    }

    /// Stops accepting, closes the idle connections and each busy one once its reply is written,
    /// and returns when all are closed.
    func stop() async {
        try? await channel.close()
        // A connection accepted just before the close may register after this: it starts quiescing.
        for connection in connections.stop() {
            connection.pipeline.fireUserInboundEventTriggered(ServiceConnectionHandler.Quiesce())
        }
        while let open = connections.any() { try? await open.closeFuture.get() }
    }
}
