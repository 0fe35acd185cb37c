package import SpeakEasyModel

/// A service's refusal as it goes on the wire: the HTTP status, Azure's error code and the message,
/// and how the reply is written: in the service's body format, with the request's id and time (as
/// hummingbird's `HTTPResponseError` renders itself).
///
/// Two types conform, one a service: ``TableServiceError`` (OData JSON at the request's level, or
/// Atom) and ``BlobServiceError`` (XML, with the code in `x-ms-error-code`). The server throws them
/// and writes what ``reply(to:requestID:time:)`` gives; the Azure client reads such a reply back
/// into a ``StorageError`` (``StorageHTTPClient``, the inverse map).
package protocol WireError: Error, Sendable, CustomStringConvertible {
    var status: Int { get }
    /// Azure's error code: `TableNotFound`, `BlobNotFound`, `ServerBusy`…
    var code: String { get }
    /// The first line of the body's message; the request id and the time follow it.
    var message: String { get }

    init(status: Int, code: String, message: String)

    /// The reply to the request with `head`: its status, the headers the error adds (the server adds
    /// those every reply carries) and the body.
    func reply(to head: RequestHead, requestID: String, time: EdmDateTime) -> WireReply
}

/// A reply as bytes: what a ``WireError`` renders, for the server to send.
package struct WireReply: Sendable, Equatable {
    package struct Header: Sendable, Equatable {
        package var name: String
        package var value: String

        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    package var status: Int
    /// The status line's phrase; empty for the usual one of the status.
    package var reasonPhrase = ""
    /// In the order they are sent.
    package var headers: [Header]
    package var body: [UInt8]

    package init(status: Int, reasonPhrase: String = "", headers: [Header], body: [UInt8]) {
        self.status = status
        self.reasonPhrase = reasonPhrase
        self.headers = headers
        self.body = body
    }

    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The refusals both services answer alike.
extension WireError {
    /// 400 MissingRequiredHeader.
    package static func missingRequiredHeader(_ name: String) -> Self {
        Self(
            status: 400,
            code: "MissingRequiredHeader",
            message: "An HTTP header that's mandatory for this request is not specified (\(name))."
        )
    }

    /// 501 NotImplemented: Azure's answer for an operation it has that this server does not serve
    /// (page blobs, leases, ACLs…): the client learns exactly that, instead of a reply it would take
    /// for the operation's.
    package static func notImplemented(_ message: String) -> Self {
        Self(status: 501, code: "NotImplemented", message: message)
    }

    /// 503 ServerBusy: worth retrying (the server adds `Retry-After`).
    package static func serverBusy(_ message: String) -> Self {
        Self(status: 503, code: "ServerBusy", message: message)
    }

    /// 431 RequestHeaderFieldsTooLarge: more header fields, or header bytes, than the server takes
    /// (RFC 6585 §5).
    package static var requestHeaderFieldsTooLarge: Self {
        Self(
            status: 431,
            code: "RequestHeaderFieldsTooLarge",
            message: "The request's header fields are too many or too large."
        )
    }

    /// 411 MissingContentLengthHeader: a body without `Content-Length` (chunked) where the operation
    /// needs one (Azure's Put Blob and Put Block).
    package static var missingContentLength: Self {
        Self(status: 411, code: "MissingContentLengthHeader", message: "The Content-Length header was not specified.")
    }

    /// 500 InternalError.
    package static func internalError(_ message: String) -> Self {
        Self(status: 500, code: "InternalError", message: message)
    }

    /// 500 OperationTimedOut: Azure's code for a request not completed within the time it allows
    /// (its documented common error), here a body that comes too slowly.
    package static var operationTimedOut: Self {
        Self(
            status: 500,
            code: "OperationTimedOut",
            message: "The operation could not be completed within the permitted time."
        )
    }

    /// 404 ResourceNotFound for a path whose account is not this one.
    package static var accountNotFound: Self {
        Self(status: 404, code: "ResourceNotFound", message: "The specified account does not exist.")
    }

    package var description: String { "\(status) \(code): \(message)" }
}
