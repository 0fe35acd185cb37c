import HTTPTypes
import NIOCore
import NIOHTTP1
import SpeakEasyProtocol

/// One connection to a service: reads each request whole, has a task answer it, and writes the reply.
///
/// NIO's `HTTPServerPipelineHandler`, in front, holds a pipelined request back until the reply before
/// it is written, so one request at a time is in flight here. (A hand-made handler, rather than an
/// async sequence of requests per connection: that bridge cost more than the whole point read.)
final class ServiceConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    typealias Responder = @Sendable (ServiceRequest, any Channel) async -> ServiceResponse?

    /// Sent to every connection when the server stops: close once the request in flight is answered.
    struct Quiesce: Sendable {}

    private let respond: Responder
    /// Bytes kept of a request's body; more are read and dropped, and the request answered 413.
    private let maxBodySize: Int
    private let serverHeader: String
    private var head: HTTPRequestHead?
    private var body: ByteBuffer?
    private var bodyTooLarge = false
    private var answering = false
    private var quiescing: Bool

    init(maxBodySize: Int, serverHeader: String, quiescing: Bool, respond: @escaping Responder) {
        self.maxBodySize = maxBodySize
        self.serverHeader = serverHeader
        self.quiescing = quiescing
        self.respond = respond
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            bodyTooLarge = false
            // A declared length is allocated once, rather than grown part by part.
            let declared = head.headers.first(name: "content-length").flatMap { Int($0) } ?? 0
            body = declared > 0 && declared <= maxBodySize ? context.channel.allocator.buffer(capacity: declared) : nil
        case .body(var part):
            guard !bodyTooLarge else { return }
            if (body?.readableBytes ?? 0) + part.readableBytes > maxBodySize {
                bodyTooLarge = true
                body = nil
            } else if body == nil {
                body = part
            } else {
                body!.writeBuffer(&part)
            }
        case .end:
            guard let head else { return }
            self.head = nil
            answering = true
            let request = ServiceRequest(head: RequestHead(head), body: bodyTooLarge ? .tooLarge : .bytes(body ?? ByteBuffer()))
            body = nil
            let loop = context.eventLoop, respond = self.respond, channel = context.channel
            let reply = NIOLoopBound((handler: self, context: context), eventLoop: loop)
            let isHead = head.method == .HEAD, keepAlive = head.isKeepAlive, version = head.version
            Task {
                let response = await respond(request, channel)
                let write = { reply.value.handler.write(response, isHead: isHead, keepAlive: keepAlive, version: version, context: reply.value.context) }
                if loop.inEventLoop { write() } else { loop.execute(write) }
            }
        }
    }

    private func write(_ response: ServiceResponse?, isHead: Bool, keepAlive: Bool, version: HTTPVersion, context: ChannelHandlerContext) {
        answering = false
        guard let response else {
            // The responder dropped the connection on purpose (a fault).
            context.close(promise: nil)
            return
        }
        var headers = HTTPHeaders()
        headers.reserveCapacity(response.headers.count + 3)
        for field in response.headers { headers.add(name: field.name.rawName, value: field.value) }
        if response.headers[.contentLength] == nil { headers.add(name: "Content-Length", value: String(response.body.readableBytes)) }
        headers.add(name: "Server", value: serverHeader)
        let close = !keepAlive || quiescing
        if close {
            headers.add(name: "Connection", value: "close")
        } else if version.minor == 0 {
            headers.add(name: "Connection", value: "keep-alive")
        }
        let status = HTTPResponseStatus(statusCode: Int(response.status.code), reasonPhrase: response.status.reasonPhrase)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        if !isHead, response.body.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(response.body))), promise: nil) }
        guard close else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.whenComplete { _ in context.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case is Quiesce:
            quiescing = true
            if !answering, head == nil { context.close(promise: nil) }
        case let idle as IdleStateHandler.IdleStateEvent where idle == .all:
            // Nothing sent or received for the idle time: close, unless a reply is being made.
            if !answering { context.close(promise: nil) }
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
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
