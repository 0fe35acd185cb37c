import Hummingbird
import SpeakEasyProtocol

/// Answers one service's requests.
struct ServiceResponder: HTTPResponder {
    typealias Context = BasicRequestContext
    let service: StorageService
    let server: StorageServer

    func respond(to request: Request, context: Context) async throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/xml"
        let body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>NotImplemented</Code><Message>Not implemented yet.</Message></Error>"
        return Response(status: .notImplemented, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
