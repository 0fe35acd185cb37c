import NIOCore
import NIOHTTP1

/// What a connection still reads, and drops, after refusing a request whose body may be on its way,
/// before it closes.
///
/// Closing with the client's bytes unread makes the close a reset, and a client still sending its
/// body then meets an error instead of the refusal (RFC 9112 §9.6); NIO-based clients and urllib3 read
/// the reply only once the body is sent. So the connection stays open, reading without keeping a byte,
/// until the body ends (then it closes at once: the client has sent all and reads the refusal), or
/// until `left` bytes or the handler's time bound have passed: a client that would send more, or
/// forever, meets the reset then. Nothing is buffered, so memory does not grow with it.
struct RefusalDrain {
    private var left: Int
    private var ended = false
    private var written = false

    init(bytes: Int) { left = bytes }

    /// A part of the refused request (or of one after it) came: whether to close now.
    mutating func received(_ part: HTTPServerRequestPart) -> Bool {
        switch part {
        case .head: break
        case .body(let bytes): left -= bytes.readableBytes
        case .end: ended = true
        }
        return written && done
    }

    /// The refusal is written: whether to close now.
    mutating func replyWritten() -> Bool {
        written = true
        return done
    }

    private var done: Bool { ended || left <= 0 }
}
