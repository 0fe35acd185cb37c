import NIOCore
import SpeakEasyProtocol

/// A request as the services receive it: the protocol's view of its head, and its body, read whole
/// by the connection before the request is handed over.
struct ServiceRequest: Sendable {
    let head: RequestHead
    let body: Body

    enum Body: Sendable {
        case bytes(ByteBuffer)
        /// More bytes came than the connection keeps for a request to this service (they were read
        /// and dropped, so that the connection can go on).
        case tooLarge
    }

    /// The body, or `BodyTooLarge` when it holds more than `limit` bytes: each operation has its own
    /// limit, under the one the connection keeps.
    func collectBody(upTo limit: Int) throws(BodyTooLarge) -> ByteBuffer {
        guard case .bytes(let buffer) = body, buffer.readableBytes <= limit else { throw BodyTooLarge() }
        return buffer
    }
}

/// A request body over its operation's limit: 413 `RequestBodyTooLarge`.
struct BodyTooLarge: Error {}
