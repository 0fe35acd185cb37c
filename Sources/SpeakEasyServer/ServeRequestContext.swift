import Hummingbird
import NIOCore

/// The request context of `serve`: Hummingbird's, plus the connection, which a `drop` fault closes.
struct ServeRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }

    /// Bodies are read by each operation up to its own limit.
    var maxUploadSize: Int { 64 << 20 }
}
