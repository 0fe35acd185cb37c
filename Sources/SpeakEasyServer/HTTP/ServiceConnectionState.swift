import NIOCore
import NIOHTTP1

/// Where one connection is, and every change of it: ``ServiceConnectionHandler`` tells it what
/// happened (a request part came, a reply is ready, a read was asked for, a stop) and does the I/O
/// the answer calls for. One request is answered at a time; as in swift-nio's
/// `HTTPServerPipelineHandler`, reads wait while a reply is made, and the parts of requests that came
/// in the same read (pipelined) wait for their turn.
struct ServiceConnectionState {
    private enum State {
        /// Between requests (nil), or reading one. `quiescing`: the server is stopping, and the
        /// connection closes after its next reply.
        case reading(PartialRequest?, quiescing: Bool)
        /// A reply is being made. Meanwhile the request parts that come wait in `queued` (an array:
        /// empty, it holds no memory, and it is seldom longer than a few parts), a read asked for
        /// waits (`readPending`), and `malformed`: bytes that are no HTTP came after those parts, so a
        /// 400 follows their replies.
        case answering(queued: [HTTPServerRequestPart], readPending: Bool, malformed: Bool, quiescing: Bool)
        /// The connection closes: its last reply (or a 400) is on its way, or it was dropped. Nothing
        /// more is answered.
        case closing
    }

    /// A request being read: its head, and its body so far (nil when it has none yet, or was too large).
    private struct PartialRequest {
        var head: HTTPRequestHead
        var body: ByteBuffer?
        var tooLarge: Bool
    }

    /// A request read whole, to be answered now.
    struct Request {
        let head: HTTPRequestHead
        let body: ServiceRequest.Body
    }

    /// What to do once a reply is written and the connection stays open.
    enum Next {
        /// Nothing: wait for the client.
        case wait
        /// Read from the socket (a read was asked for while the reply was being made).
        case read
        /// Answer a request that had come meanwhile.
        case answer(Request)
        /// Answer 400 and close: bytes that are no HTTP had come.
        case badRequest
    }

    private var state: State
    /// Bytes kept of a request's body; more are read and dropped, and the request answered 413.
    private let maxBodySize: Int

    init(maxBodySize: Int, quiescing: Bool) {
        self.maxBodySize = maxBodySize
        state = .reading(nil, quiescing: quiescing)
    }

    /// A part of a request came: the request to answer, when this part completes it.
    mutating func received(_ part: HTTPServerRequestPart, allocator: ByteBufferAllocator) -> Request? {
        switch state {
        case .reading:
            return read(part, allocator: allocator)
        case .answering(var queued, let readPending, let malformed, let quiescing):
            state = .closing // while `queued` grows in place
            queued.append(part)
            state = .answering(queued: queued, readPending: readPending, malformed: malformed, quiescing: quiescing)
            return nil
        case .closing:
            return nil
        }
    }

    /// Reads `part` into the request being read (only in `.reading`).
    private mutating func read(_ part: HTTPServerRequestPart, allocator: ByteBufferAllocator) -> Request? {
        guard case .reading(var partial, let quiescing) = state else { return nil }
        switch part {
        case .head(let head):
            // A declared length is allocated once, rather than grown part by part; up to 1 MiB, so that
            // a client declaring large bodies it never sends holds no memory for them.
            let declared = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
            let body = declared > 0 && declared <= maxBodySize ? allocator.buffer(capacity: min(declared, 1 << 20)) : nil
            state = .reading(PartialRequest(head: head, body: body, tooLarge: false), quiescing: quiescing)
        case .body(var bytes):
            guard var request = partial, !request.tooLarge else { return nil }
            partial = nil
            state = .closing // while the body grows in place
            if (request.body?.readableBytes ?? 0) + bytes.readableBytes > maxBodySize {
                request.tooLarge = true
                request.body = nil
            } else if request.body == nil {
                request.body = bytes
            } else {
                request.body!.writeBuffer(&bytes)
            }
            state = .reading(request, quiescing: quiescing)
        case .end:
            guard let request = partial else { return nil }
            state = .answering(queued: [], readPending: false, malformed: false, quiescing: quiescing)
            return Request(head: request.head, body: request.tooLarge ? .tooLarge : .bytes(request.body ?? ByteBuffer()))
        }
        return nil
    }

    /// The reply to the request being answered is ready (nil: the responder drops the connection).
    /// Whether the connection closes after it, and if not, what comes next once it is written.
    mutating func replied(_ reply: Bool, keepAlive: Bool, allocator: ByteBufferAllocator) -> (close: Bool, next: Next) {
        guard case .answering(var queued, let readPending, let malformed, let quiescing) = state else { return (true, .wait) }
        guard reply, keepAlive, !quiescing else {
            state = .closing
            return (true, .wait)
        }
        // The requests that came meanwhile, in turn, until one is whole; then reading goes on.
        state = .reading(nil, quiescing: false)
        while !queued.isEmpty {
            if let request = read(queued.removeFirst(), allocator: allocator) {
                state = .answering(queued: queued, readPending: readPending, malformed: malformed, quiescing: false)
                return (false, .answer(request))
            }
        }
        if malformed {
            state = .closing
            return (false, .badRequest)
        }
        return (false, readPending ? .read : .wait)
    }

    /// A read from the socket is asked for: whether to read now (otherwise it waits for the reply).
    mutating func readRequested() -> Bool {
        guard case .answering(let queued, _, let malformed, let quiescing) = state else { return true }
        state = .answering(queued: queued, readPending: true, malformed: malformed, quiescing: quiescing)
        return false
    }

    /// Bytes that are no HTTP came (the decoder stops there): whether to answer 400 and close now;
    /// otherwise the 400 follows the replies to the requests before them.
    mutating func malformedRequest() -> Bool {
        switch state {
        case .reading:
            state = .closing
            return true
        case .answering(let queued, let readPending, _, let quiescing):
            state = .answering(queued: queued, readPending: readPending, malformed: true, quiescing: quiescing)
            return false
        case .closing:
            return false
        }
    }

    /// The server stops: whether to close now (between requests); otherwise after the next reply.
    mutating func quiesce() -> Bool {
        switch state {
        case .reading(nil, _), .closing:
            state = .closing
            return true
        case .reading(let request?, _):
            state = .reading(request, quiescing: true)
            return false
        case .answering(let queued, let readPending, let malformed, _):
            state = .answering(queued: queued, readPending: readPending, malformed: malformed, quiescing: true)
            return false
        }
    }

    /// Nothing was sent or received for the idle time: whether to close (unless a reply is being made).
    mutating func idle() -> Bool {
        if case .answering = state { return false }
        state = .closing
        return true
    }
}
