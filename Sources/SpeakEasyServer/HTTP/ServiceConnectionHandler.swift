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
/// stop waits for it all the same while its client is connected: the listener waits for every open
/// connection to close, and a busy one closes once its reply is written. (An async sequence of
/// requests per connection, which would make connections children of the listener, cost Hummingbird
/// 21 µs a request, a third of a point read's CPU then; NIO's response encoder and pipelining handler
/// another 8 µs.)
final class ServiceConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    typealias Responder = @Sendable (ServiceRequest, any Channel) async -> ServiceResponse?

    /// Sent to every connection when the server stops: close once the request in flight is answered.
    struct Quiesce: Sendable {}

    private let respond: Responder
    /// Bodies up to this size are copied behind the head rather than sent as a buffer of their own.
    private static let copiedBodyBytes = 16 << 10
    private let serverHeader: String
    private var state: ServiceConnectionState
    /// The connection's event loop, as the executor its requests' tasks prefer (set when added).
    private var executor: EventLoopTaskExecutor?

    init(maxBodySize: Int, serverHeader: String, quiescing: Bool, respond: @escaping Responder) {
        self.serverHeader = serverHeader
        self.state = ServiceConnectionState(maxBodySize: maxBodySize, quiescing: quiescing)
        self.respond = respond
    }

    func handlerAdded(context: ChannelHandlerContext) {
        executor = EventLoopTaskExecutor(context.eventLoop)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if let request = state.received(unwrapInboundIn(data), allocator: context.channel.allocator) {
            answer(request, context: context)
        }
    }

    /// Has a task make the reply to `request`, and writes it on the loop.
    private func answer(_ request: ServiceConnectionState.Request, context: ChannelHandlerContext) {
        let head = request.head
        let serviceRequest = ServiceRequest(head: RequestHead(head), body: request.body)
        let loop = context.eventLoop, respond = self.respond, channel = context.channel
        let reply = NIOLoopBound((handler: self, context: context), eventLoop: loop)
        let isHead = head.method == .HEAD, keepAlive = head.isKeepAlive, version = head.version
        let executor = self.executor ?? EventLoopTaskExecutor(loop)
        Task(executorPreference: executor) {
            let response = await respond(serviceRequest, channel)
            let write = { reply.value.handler.write(response, isHead: isHead, keepAlive: keepAlive, version: version, context: reply.value.context) }
            if loop.inEventLoop { write() } else { loop.execute(write) }
        }
    }

    private func write(_ response: ServiceResponse?, isHead: Bool, keepAlive: Bool, version: HTTPVersion, context: ChannelHandlerContext) {
        let (close, next) = state.replied(response != nil, keepAlive: keepAlive, allocator: context.channel.allocator)
        guard let response else {
            // The responder dropped the connection on purpose (a fault).
            context.close(promise: nil)
            return
        }
        var head = context.channel.allocator.buffer(
            capacity: 256 + response.headers.count * 48 + (response.body.readableBytes <= Self.copiedBodyBytes ? response.body.readableBytes : 0))
        head.writeString(version.minor == 0 ? "HTTP/1.0 " : "HTTP/1.1 ")
        head.writeString(String(response.status.code))
        head.writeInteger(UInt8(ascii: " "))
        // HTTPTypes leaves the phrase empty for a status made from its code alone; NIO knows them all.
        head.writeString(response.status.reasonPhrase.isEmpty ? HTTPResponseStatus(statusCode: Int(response.status.code)).reasonPhrase : response.status.reasonPhrase)
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
            written.futureResult.whenComplete { _ in context.close(promise: nil) }
            return
        }
        // The next request, if one came meanwhile; then reading goes on.
        switch next {
        case .wait: break
        case .read: context.read()
        case .answer(let request): answer(request, context: context)
        case .badRequest: badRequest(context: context)
        }
    }

    /// NIO's answer to bytes that are no HTTP request (the decoder stops there), then the end.
    private func badRequest(context: ChannelHandlerContext) {
        let reply = context.channel.allocator.buffer(staticString: "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        context.writeAndFlush(wrapOutboundOut(reply)).whenComplete { _ in context.close(promise: nil) }
    }

    func read(context: ChannelHandlerContext) {
        if state.readRequested() { context.read() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is Quiesce:
            if state.quiesce() { context.close(promise: nil) }
        case let idle as IdleStateHandler.IdleStateEvent where idle == .all:
            // Nothing sent or received for the idle time: close, unless a reply is being made.
            if state.idle() { context.close(promise: nil) }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Bytes that are no HTTP request: 400, after the replies to the requests before them.
        guard error is HTTPParserError else {
            context.close(promise: nil)
            return
        }
        if state.malformedRequest() { badRequest(context: context) }
    }
}

extension RequestHead {
    /// The protocol's view of an HTTP/1 request head: the path and query exactly as sent.
    init(_ head: HTTPRequestHead) {
        let target = head.uri
        let question = target.utf8.firstIndex(of: UInt8(ascii: "?"))
        self.init(
            method: head.method.rawValue, path: String(target[..<(question ?? target.endIndex)]),
            query: question.map { String(target[target.utf8.index(after: $0)...]) } ?? "",
            headers: head.headers.map { (name: $0.name, value: $0.value) })
    }
}
