import HTTPTypes
import NIOCore
import NIOHTTP1
import SpeakEasyProtocol

/// One connection to a service, behind NIO's HTTP/1 request decoder: reads each request whole, has a
/// task answer it, and writes the reply as bytes. Where the connection is (reading a request, making a
/// reply with reads held back, closing) is ``ServiceConnectionState``'s to say; this handler does the
/// I/O it calls for.
///
/// Each request is answered by a task of its own, which runs on the connection's event loop (an
/// executor preference, ``EventLoopTaskExecutor``), so that a reply made without waiting is written
/// without a thread switch. That task is the one path from a request to its reply: everything it
/// awaits (the store, the half of a query page written alongside) is structured under it, and it ends
/// by handing its reply to this handler on the loop. It is not a child of the listener's task, but a
/// stop waits for it all the same: the listener waits for every open connection to close (a busy one
/// closes once its reply is written), and the server's loops for every task (``ServerLoops``), whose
/// client may have gone. (An async sequence of requests per connection, which would make connections
/// children of the listener, cost Hummingbird 21 µs a request, a third of a point read's CPU then;
/// NIO's response encoder and pipelining handler another 8 µs.)
final class ServiceConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Sent to every connection when the server stops: close once the request in flight is answered.
    struct Quiesce: Sendable {}

    private let service: ServiceCalls
    /// Where the requests' tasks run (``ServerLoops``), and are counted until they end.
    private let loops: ServerLoops
    /// Bodies up to this size are copied behind the head rather than sent as a buffer of their own.
    private static let copiedBodyBytes = 16 << 10
    /// After a refusal, how long the connection still reads (and drops) the body (``RefusalDrain``):
    /// a whole body of the service's largest size comes in far less over loopback or a LAN.
    private static let drainTime = TimeAmount.seconds(2)
    private let serverHeader: String
    private let connections: OpenConnections
    private var state: ServiceConnectionState
    /// The connection's event loop, as the executor its requests' tasks prefer (set when added).
    private var executor: EventLoopTaskExecutor?
    /// Whether ``connections`` was last told this connection is idle (told only on a change).
    private var toldIdle = true
    /// Watches the pace of the body being read (``ConnectionLimits/tooSlow(received:elapsed:)``).
    private var paceCheck: RepeatedTask?
    private let bodyGrace: TimeAmount
    /// The body still read and dropped after a refusal, before closing; nil until a refusal.
    private var drain: RefusalDrain?
    /// The most a drain reads: twice the service's largest body, so that a client sending one just
    /// over the limit reads its 413.
    private let drainedBytes: Int

    init(
        limits: ConnectionLimits,
        serverHeader: String,
        quiescing: Bool,
        connections: OpenConnections,
        loops: ServerLoops,
        service: ServiceCalls
    ) {
        self.loops = loops
        self.serverHeader = serverHeader
        self.state = ServiceConnectionState(limits: limits, quiescing: quiescing)
        self.connections = connections
        self.service = service
        bodyGrace = limits.bodyGrace
        drainedBytes = 2 * limits.maxBodySize
    }

    func handlerAdded(context: ChannelHandlerContext) {
        executor = EventLoopTaskExecutor(context.eventLoop)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        paceCheck?.cancel()
        state.giveBack()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        if drain != nil {
            if drain!.received(part) { context.close(promise: nil) }
            return
        }
        perform(state.received(part, now: .now()), context: context)
    }

    /// Does what the state calls for next.
    private func perform(_ next: ServiceConnectionState.Next, context: ChannelHandlerContext) {
        tellIdle(context)
        switch next {
        case .wait: break
        case .read: context.read()
        case .admit(let head): admit(head, context: context)
        case .answer(let request): answer(request, context: context)
        case .reject(let head, let refusal): reject(head, refusal, context: context)
        case .refuse(let head, let refusal):
            drain = RefusalDrain(bytes: drainedBytes)
            let response = service.refuse(RequestHead(head), refusal)
            write(response, isHead: head.method == .HEAD, keepAlive: false, version: head.version, context: context)
        }
    }

    /// Tells ``connections`` when the connection starts or stops being idle between requests.
    private func tellIdle(_ context: ChannelHandlerContext) {
        let idle = state.isIdle
        guard idle != toldIdle else { return }
        toldIdle = idle
        connections.connection(context.channel, idle: idle)
    }

    /// Has a task ask the service about `head`, and reads the body (or answers the refusal) on the loop.
    private func admit(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        let loop = context.eventLoop
        let service = self.service
        let requestHead = RequestHead(head)
        let sourceIP = context.channel.remoteAddress?.ipAddress
        let decided = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let executor = self.executor ?? EventLoopTaskExecutor(loop)
        loops.task(on: executor) {
            let admission = await service.admit(requestHead, sourceIP)
            let apply = { decided.value.handler.admitted(admission, head: head, context: decided.value.context) }
            if loop.inEventLoop { apply() } else { loop.execute(apply) }
        }
    }

    private func admitted(_ admission: Admission, head: HTTPRequestHead, context: ChannelHandlerContext) {
        // Closed meanwhile: its share of the budget was given back when it closed, and must not be taken.
        guard context.channel.isActive else { return }
        switch admission {
        case .refused(let response):
            guard let response else {
                state.dropped()
                context.close(promise: nil)
                return
            }
            let (goesOn, came) = state.refused()
            if !goesOn {
                // A client that waits for leave to send its body sends none; another's may be coming.
                let waits = head.headers.first(name: "expect")?.lowercased() == "100-continue"
                drain = RefusalDrain(bytes: waits ? 0 : drainedBytes)
                for part in came { _ = drain!.received(part) }
            }
            write(
                response,
                isHead: head.method == .HEAD,
                keepAlive: goesOn && head.isKeepAlive,
                version: head.version,
                context: context
            )
        case .admitted(let admitted):
            // The client that waits for leave to send its body (RFC 9110 §10.1.1) has it now.
            if head.version.minor >= 1, head.headers.first(name: "expect")?.lowercased() == "100-continue" {
                context.writeAndFlush(
                    wrapOutboundOut(context.channel.allocator.buffer(staticString: "HTTP/1.1 100 Continue\r\n\r\n")),
                    promise: nil
                )
            }
            let next = state.admitted(admitted, now: .now())
            if state.readingBody { watchPace(context: context) }
            perform(next, context: context)
        }
    }

    /// Checks, once a second after the grace, that the body being read comes fast enough; stops once
    /// it is read.
    private func watchPace(context: ChannelHandlerContext) {
        guard paceCheck == nil else { return }
        let watched = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        paceCheck = context.eventLoop.scheduleRepeatedTask(initialDelay: bodyGrace, delay: .seconds(1)) { task in
            let handler = watched.value.handler
            guard handler.state.readingBody else {
                task.cancel()
                handler.paceCheck = nil
                return
            }
            if let refusal = handler.state.checkPace(now: .now()) {
                task.cancel()
                handler.paceCheck = nil
                handler.perform(refusal, context: watched.value.context)
            }
        }
    }

    /// Has a task make the reply to `request`, and writes it on the loop.
    private func answer(_ request: ServiceConnectionState.Request, context: ChannelHandlerContext) {
        paceCheck?.cancel()
        paceCheck = nil
        let head = request.head
        let serviceRequest = ServiceRequest(admitted: request.admitted, body: request.body)
        let loop = context.eventLoop
        let respond = service.respond
        let channel = context.channel
        let reply = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let isHead = head.method == .HEAD
        let keepAlive = head.isKeepAlive
        let version = head.version
        let executor = self.executor ?? EventLoopTaskExecutor(loop)
        loops.task(on: executor) {
            let response = await respond(serviceRequest, channel)
            let write = {
                reply.value.handler.write(
                    response,
                    isHead: isHead,
                    keepAlive: keepAlive,
                    version: version,
                    context: reply.value.context
                )
            }
            if loop.inEventLoop { write() } else { loop.execute(write) }
        }
    }

    private func write(
        _ response: ServiceResponse?,
        isHead: Bool,
        keepAlive: Bool,
        version: HTTPVersion,
        context: ChannelHandlerContext
    ) {
        let (close, next) = state.replied(response != nil, keepAlive: keepAlive, now: .now())
        guard let response else {
            // The responder dropped the connection on purpose (a fault).
            context.close(promise: nil)
            return
        }
        var head = context.channel.allocator.buffer(
            capacity: 256 + response.headers.count * 48
                + (response.body.readableBytes <= Self.copiedBodyBytes ? response.body.readableBytes : 0)
        )
        head.writeString(version.minor == 0 ? "HTTP/1.0 " : "HTTP/1.1 ")
        head.writeString(String(response.status.code))
        head.writeInteger(UInt8(ascii: " "))
        // HTTPTypes leaves the phrase empty for a status made from its code alone; NIO knows them all.
        head.writeString(
            response.status.reasonPhrase.isEmpty
                ? HTTPResponseStatus(statusCode: Int(response.status.code)).reasonPhrase : response.status.reasonPhrase
        )
        head.writeStaticString("\r\n")
        // HTTPFields has checked the names and made the values legal (no CR, LF or NUL).
        var hasLength = false
        // No length on a reply that never has a body (RFC 9110 §8.6).
        let bodiless = response.status.code == 204 || response.status.code == 304
        for field in response.headers where !(bodiless && field.name == .contentLength) {
            head.writeString(field.name.rawName)
            head.writeStaticString(": ")
            head.writeString(field.value)
            head.writeStaticString("\r\n")
            hasLength = hasLength || field.name == .contentLength
        }
        if !hasLength, !bodiless {
            head.writeStaticString("Content-Length: ")
            head.writeString(String(response.body.readableBytes))
            head.writeStaticString("\r\n")
        }
        head.writeStaticString("Server: ")
        head.writeString(serverHeader)
        if close {
            head.writeStaticString("\r\nConnection: close")
        } else if version.minor == 0 {
            head.writeStaticString("\r\nConnection: keep-alive")
        }
        head.writeStaticString("\r\n\r\n")
        let written: EventLoopPromise<Void>? = close ? context.eventLoop.makePromise() : nil
        let sendsBody = !isHead && !bodiless && response.body.readableBytes > 0
        if !sendsBody || response.body.readableBytes <= Self.copiedBodyBytes {
            // A small body (an entity, an error) goes in the head's buffer: one buffer to send.
            if sendsBody { head.writeImmutableBuffer(response.body) }
            context.writeAndFlush(wrapOutboundOut(head), promise: written)
        } else {
            context.write(wrapOutboundOut(head), promise: nil)
            context.writeAndFlush(wrapOutboundOut(response.body), promise: written)
        }
        if let written {
            // A reply that ends a request the client asked to close after is the end; a refusal
            // (the client may still be sending) drains first.
            let refused = !keepAlive
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            written.futureResult.whenComplete { _ in
                if refused { handler.value.closeAfterDrain(context: context) } else { context.close(promise: nil) }
            }
            return
        }
        // The next request, if one came meanwhile; then reading goes on.
        perform(next, context: context)
    }

    /// The service's error reply to a head no service saw (bytes that are no HTTP, a missing `Host`,
    /// too many headers), logged as every reply is, then the end.
    private func reject(_ head: HTTPRequestHead?, _ refusal: HeadRefusal, context: ChannelHandlerContext) {
        // The parser stops at bytes it cannot read: nothing more of them is read.
        if drain == nil { drain = RefusalDrain(bytes: refusal == .tooLarge ? drainedBytes : 0) }
        let response = service.reject(head.map(RequestHead.init), refusal)
        write(
            response,
            isHead: head?.method == .HEAD,
            keepAlive: false,
            version: head?.version ?? .http1_1,
            context: context
        )
    }

    /// The refusal is written: closes once its request's body is drained (``RefusalDrain``), or after
    /// ``drainTime`` at most.
    private func closeAfterDrain(context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        if drain == nil { drain = RefusalDrain(bytes: 0) }
        if drain!.replyWritten() {
            context.close(promise: nil)
            return
        }
        context.read()
        context.eventLoop.scheduleTask(in: Self.drainTime) { context.close(promise: nil) }
    }

    func read(context: ChannelHandlerContext) {
        if drain != nil || state.readRequested() { context.read() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is Quiesce:
            if state.quiesce() { context.close(promise: nil) }
        case let idle as IdleStateHandler.IdleStateEvent where idle == .all:
            // Nothing sent or received for the idle time: close, unless a reply is being made.
            if state.idle() { context.close(promise: nil) }
        case is OpenConnections.Evict:
            // A new client needs the slot; still between requests, this connection gives it up.
            if state.evict() { context.close(promise: nil) }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Bytes that are no HTTP request: 400, after the replies to the requests before them; a head
        // past the parser's own bound on header bytes (80 KiB), 431 as one past ours.
        guard let error = error as? HTTPParserError else {
            context.close(promise: nil)
            return
        }
        let refusal: HeadRefusal = error == .headerOverflow ? .tooLarge : .malformed
        if state.malformedRequest(refusal) { reject(nil, refusal, context: context) }
    }
}

extension RequestHead {
    /// The protocol's view of an HTTP/1 request head: the path and query exactly as sent.
    init(_ head: HTTPRequestHead) {
        let target = head.uri
        let question = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        self.init(
            method: head.method.rawValue,
            path: String(target[..<(question ?? target.endIndex)]),
            query: question.map { String(target[target.utf8.index(after: $0)...]) } ?? "",
            headers: head.headers.map { (name: $0.name, value: $0.value) }
        )
    }
}
