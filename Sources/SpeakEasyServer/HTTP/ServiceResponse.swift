import HTTPTypes
import NIOCore

/// A reply of the services: status, headers and the whole body. `Content-Length` is the body's unless
/// a service set it (the length of a blob a HEAD describes, whose reply carries no body).
struct ServiceResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: ByteBuffer

    init(status: HTTPResponse.Status, headers: HTTPFields = [:], body: ByteBuffer = ByteBuffer()) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
