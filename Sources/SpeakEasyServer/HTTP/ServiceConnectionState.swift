import NIOCore
import NIOHTTP1

/// Where one connection is, and every change of it: ``ServiceConnectionHandler`` tells it what
/// happened (a request part came, the service decided on a head, a reply is ready, a read was asked
/// for, a stop) and does the I/O the answer calls for. One request is answered at a time; as in
/// swift-nio's `HTTPServerPipelineHandler`, reads wait while a reply is made, and the parts of
/// requests that came in the same read (pipelined) wait for their turn.
///
/// A request goes head first: the head is checked here (its size, `Host`), then the service decides
/// on it alone (credentials, declared length: ``Admission``) with reads held back, and only an
/// admitted request has its body read, within ``ConnectionLimits``. A refusal is answered at once
/// and the connection closes: a client that sends what it may not send gets nothing buffered.
struct ServiceConnectionState {
    private enum State {
        /// Between requests (nil), or reading an admitted one's body. `quiescing`: the server is
        /// stopping, and the connection closes after its next reply.
        case reading(PartialRequest?, quiescing: Bool)
        /// The service decides on `head`. Meanwhile reads wait, as while answering.
        case admitting(HTTPRequestHead, Held)
        /// A reply is being made.
        case answering(Held)
        /// The connection closes: its last reply (or a refusal) is on its way, or it was dropped.
        /// Nothing more is answered.
        case closing
    }

    /// What waits while the service works: the request parts that came (an array: empty, it holds no
    /// memory, and it is seldom longer than a few parts; one read's worth at most, as reads wait), a
    /// read asked for (`readPending`), and `malformed`: a head that cannot be read (bytes that are
    /// no HTTP, or too many header bytes) came after those parts, so its refusal follows.
    private struct Held {
        var queued: [HTTPServerRequestPart] = []
        var readPending = false
        var malformed: HeadRefusal?
        var quiescing: Bool
    }

    /// An admitted request whose body is being read, into the one array the service is handed:
    /// copied once from the socket's buffers, and never again on its way to the store.
    private struct PartialRequest {
        var head: HTTPRequestHead
        var admitted: AdmittedRequest
        var body: [UInt8]
        /// The declared `Content-Length`, 0 when there is none (a chunked body, or no body).
        var declared: Int
        var received = 0
        let started: NIODeadline
    }

    /// A request read whole, to be answered now.
    struct Request {
        let head: HTTPRequestHead
        let admitted: AdmittedRequest
        let body: [UInt8]
    }

    /// What the handler is to do next.
    enum Next {
        /// Nothing: wait for the client (or for the service).
        case wait
        /// Read from the socket (a read was asked for while the service worked).
        case read
        /// Have the service decide on a request's head; reads wait meanwhile.
        case admit(HTTPRequestHead)
        /// Answer a request read whole.
        case answer(Request)
        /// Answer with the service's error for `refusal` and close: a head refused before any
        /// service sees it (400 for bytes that are no HTTP, which have no head, or a missing `Host`;
        /// 431 for too many headers).
        case reject(HTTPRequestHead?, HeadRefusal)
        /// Answer with the service's error for `refusal` and close.
        case refuse(HTTPRequestHead, BodyRefusal)
    }

    private var state: State
    private let limits: ConnectionLimits
    /// Bytes this connection holds of the server's ``BodyBudget``, for the request being read.
    private var taken = 0

    init(limits: ConnectionLimits, quiescing: Bool) {
        self.limits = limits
        state = .reading(nil, quiescing: quiescing)
    }

    /// Whether the connection is between requests, with nothing of a new one come: one that may be
    /// closed for a new client without losing anything.
    var isIdle: Bool {
        if case .reading(nil, _) = state { return true }
        return false
    }

    /// A part of a request came.
    mutating func received(_ part: HTTPServerRequestPart, now: NIODeadline) -> Next {
        switch state {
        case .reading:
            return read(part, now: now)
        case .admitting, .answering, .closing:
            _ = changeHeld { $0.queued.append(part) }
            return .wait
        }
    }

    /// Changes what waits while the service works: false when nothing does (the connection is
    /// reading or closing).
    private mutating func changeHeld(_ change: (inout Held) -> Void) -> Bool {
        switch state {
        case .admitting(let head, var held):
            state = .closing  // while `held` changes in place
            change(&held)
            state = .admitting(head, held)
            return true
        case .answering(var held):
            state = .closing
            change(&held)
            state = .answering(held)
            return true
        case .reading, .closing:
            return false
        }
    }

    /// Reads `part` into the request being read (only in `.reading`).
    private mutating func read(_ part: HTTPServerRequestPart, now: NIODeadline) -> Next {
        guard case .reading(var partial, let quiescing) = state else { return .wait }
        switch part {
        case .head(let head):
            if let refusal = Self.refusal(of: head, limits) {
                state = .closing
                return .reject(head, refusal)
            }
            state = .admitting(head, Held(quiescing: quiescing))
            return .admit(head)
        case .body(let bytes):
            guard var request = partial else { return .wait }
            partial = nil
            let received = request.received + bytes.readableBytes
            // Checked as the bytes come, whatever the head declared: a chunked body has no length.
            guard received <= limits.maxBodySize else {
                state = .closing
                return .refuse(request.head, .tooLarge)
            }
            guard take(upTo: received) else {
                state = .closing
                return .refuse(request.head, .busy)
            }
            state = .closing  // while the body grows in place
            request.received = received
            // A body past its first MiB is sent in earnest: it gets its declared length at once, so
            // that it is never copied to grow (a chunked one grows as an array does).
            if received > request.body.capacity, request.declared >= received {
                request.body.reserveCapacity(request.declared)
            }
            bytes.withUnsafeReadableBytes { request.body.append(contentsOf: $0) }
            state = .reading(request, quiescing: quiescing)
            return .wait
        case .end:
            guard let request = partial else { return .wait }
            state = .answering(Held(quiescing: quiescing))
            return .answer(Request(head: request.head, admitted: request.admitted, body: request.body))
        }
    }

    /// Why the connection refuses `head` before a service sees it: too many headers or header bytes
    /// (431), or an HTTP/1.1 request without exactly one `Host` (400, RFC 9112 §3.2; HTTP/1.0 has
    /// none to give).
    private static func refusal(of head: HTTPRequestHead, _ limits: ConnectionLimits) -> HeadRefusal? {
        guard head.headers.count <= limits.maxHeaderCount else { return .tooLarge }
        var bytes = head.uri.utf8.count
        var hosts = 0
        for (name, value) in head.headers {
            // As sent: "name: value\r\n".
            bytes += name.utf8.count + value.utf8.count + 4
            if name.utf8.count == 4, name.lowercased() == "host" { hosts += 1 }
        }
        guard bytes <= limits.maxHeaderBytes else { return .tooLarge }
        if head.version.major > 1 || head.version.minor >= 1, hosts != 1 { return .host }
        return nil
    }

    /// Takes from the server's budget what the request's body needs beyond what it holds.
    private mutating func take(upTo bytes: Int) -> Bool {
        guard bytes > taken else { return true }
        guard limits.budget.take(bytes - taken) else { return false }
        taken = bytes
        return true
    }

    /// Gives the request's share of the budget back: it is answered, or the connection closed.
    mutating func giveBack() {
        limits.budget.giveBack(taken)
        taken = 0
    }

    /// The service refused the head being decided on: whether the connection goes on after the
    /// refusal, as after any reply. It does when the request has no body, whose bytes would otherwise
    /// have to be read to find the next request; otherwise it closes (after a bounded drain, by the
    /// handler), so that a body the server will not take is never kept. `came`: the parts that came
    /// meanwhile, for the drain.
    mutating func refused() -> (goesOn: Bool, came: [HTTPServerRequestPart]) {
        guard case .admitting(let head, let held) = state else { return (false, []) }
        // A request has a body when it declares a length above 0 or is chunked (RFC 9112 §6.3).
        let declared = head.headers.first(name: "content-length").map { Int($0) ?? .max } ?? 0
        guard declared == 0, !head.headers.contains(name: "transfer-encoding") else {
            state = .closing
            return (false, held.queued)
        }
        // Its remaining parts (its end) wait with the next requests', and are passed over.
        state = .answering(held)
        return (true, [])
    }

    /// The connection is dropped without a reply (a fault).
    mutating func dropped() {
        state = .closing
    }

    /// The service admitted the head being decided on: what comes next, the body read from the parts
    /// that came meanwhile on.
    mutating func admitted(_ admitted: AdmittedRequest, now: NIODeadline) -> Next {
        guard case .admitting(let head, let held) = state else { return .wait }
        // A declared length is taken from the budget (and allocated) once, before the body comes;
        // allocated up to 1 MiB, so that a client declaring a body it never sends holds no memory.
        let declared = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
        guard take(upTo: declared) else {
            state = .closing
            return .refuse(head, .busy)
        }
        var body: [UInt8] = []
        if declared > 0 { body.reserveCapacity(min(declared, 1 << 20)) }
        state = .reading(
            PartialRequest(head: head, admitted: admitted, body: body, declared: declared, started: now),
            quiescing: held.quiescing
        )
        return resume(held, now: now)
    }

    /// The reply to the request being answered is ready (nil: the responder drops the connection).
    /// Whether the connection closes after it, and if not, what comes next once it is written.
    mutating func replied(_ reply: Bool, keepAlive: Bool, now: NIODeadline) -> (close: Bool, next: Next) {
        giveBack()
        guard case .answering(let held) = state else { return (true, .wait) }
        guard reply, keepAlive, !held.quiescing else {
            state = .closing
            return (true, .wait)
        }
        state = .reading(nil, quiescing: false)
        return (false, resume(held, now: now))
    }

    /// Reads the parts that came while the service worked, until one calls for the service again
    /// (a head to decide on, a request to answer) or ends the connection; then reading goes on.
    private mutating func resume(_ held: Held, now: NIODeadline) -> Next {
        var held = held
        while !held.queued.isEmpty {
            let next = read(held.queued.removeFirst(), now: now)
            switch (next, state) {
            case (.wait, _): continue
            case (_, .admitting(let head, let waiting)):
                held.quiescing = waiting.quiescing
                state = .admitting(head, held)
                return next
            case (_, .answering):
                state = .answering(held)
                return next
            default:
                return next
            }
        }
        if let refusal = held.malformed {
            state = .closing
            return .reject(nil, refusal)
        }
        return held.readPending ? .read : .wait
    }

    /// A read from the socket is asked for: whether to read now (otherwise it waits for the service).
    mutating func readRequested() -> Bool {
        !changeHeld { $0.readPending = true }
    }

    /// A head that cannot be read came (the decoder stops there): whether to answer `refusal` and
    /// close now; otherwise it follows the replies to the requests before them.
    mutating func malformedRequest(_ refusal: HeadRefusal) -> Bool {
        guard case .reading = state else {
            _ = changeHeld { $0.malformed = refusal }
            return false
        }
        state = .closing
        return true
    }

    /// The body being read comes too slowly by ``ConnectionLimits/tooSlow(received:elapsed:)``: the
    /// refusal to answer (and close), or nil.
    mutating func checkPace(now: NIODeadline) -> Next? {
        guard case .reading(let request?, _) = state,
            limits.tooSlow(received: request.received, elapsed: now - request.started)
        else { return nil }
        state = .closing
        return .refuse(request.head, .tooSlow)
    }

    /// Whether a body is being read (its pace is then watched).
    var readingBody: Bool {
        if case .reading(_?, _) = state { return true }
        return false
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
        case .admitting, .answering:
            _ = changeHeld { $0.quiescing = true }
            return false
        }
    }

    /// Nothing was sent or received for the idle time, or the connection is the longest idle one
    /// when a new client comes: whether to close (only when no request is being decided or answered).
    mutating func idle() -> Bool {
        switch state {
        case .admitting, .answering: return false
        case .reading, .closing:
            state = .closing
            return true
        }
    }

    /// A new client needs this connection's slot: whether to close it, which only a connection between
    /// requests is.
    mutating func evict() -> Bool {
        guard isIdle else { return false }
        state = .closing
        return true
    }
}
