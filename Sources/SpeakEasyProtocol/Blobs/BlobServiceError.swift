package import SpeakEasyModel
package import SpeakEasyStorage

/// A Blob service error as it travels over the wire: the HTTP status, Azure's error code, the
/// message, and what a few errors add (the authentication detail of a 403, the blob's size in a
/// 416's `Content-Range`).
///
/// The reply is `<Error><Code>…</Code><Message>…</Message></Error>` (``BlobErrorBody``) with the code
/// in `x-ms-error-code` too, as Azure's is. ``TableServiceError`` is the Table service's own.
package struct BlobServiceError: WireError, Equatable {
    package var status: Int
    package var code: String
    package var message: String
    /// Why authentication failed (Azure's `AuthenticationErrorDetail`); nil for other errors.
    package var authenticationDetail: String?
    /// Headers the error adds after `Content-Type` and `x-ms-error-code`.
    package var headers: [WireReply.Header] = []
    /// The status line's phrase when it is not the status's usual one.
    package var reasonPhrase = ""

    package init(status: Int, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    package init(status: Int, code: String, _ message: String) {
        self.init(status: status, code: code, message: message)
    }

    /// The wire form of a storage account's error: its specific Azure code when it has one.
    package init(_ error: StorageError) {
        self.init(status: error.httpStatus, code: error.azureCode, error.message)
    }

    /// A refused request: the code's own message, the detail in `AuthenticationErrorDetail`.
    package init(_ error: AuthorizationError) {
        self.init(status: error.httpStatus, code: error.code.rawValue, error.message)
        authenticationDetail = error.detail.isEmpty ? nil : error.detail
    }

    /// The reply to `head`. A HEAD's names no `Content-Type`, as Azure's does not (Azurite:
    /// tests/blob/apis/blob.test.ts "get properties response should not set content-type"): no body
    /// is sent with it, and its `Content-Length` is still the one a GET's body has.
    package func reply(to head: RequestHead, requestID: String, time: EdmDateTime) -> WireReply {
        let body = BlobErrorBody.xml(
            code: code,
            message: message,
            requestID: requestID,
            time: time.description,
            authenticationDetail: authenticationDetail
        )
        return WireReply(
            status: status,
            reasonPhrase: reasonPhrase,
            headers: (head.method == "HEAD" ? [] : [WireReply.Header("Content-Type", "application/xml")])
                + [WireReply.Header("x-ms-error-code", code)] + headers,
            body: body
        )
    }
}

/// The errors the Blob service answers with, with Azure's codes and texts.
extension BlobServiceError {
    /// 400 InvalidHeaderValue: a header whose value cannot be read.
    package static func invalidHeaderValue(_ name: String, _ value: String) -> Self {
        Self(
            status: 400,
            code: "InvalidHeaderValue",
            "The value for one of the HTTP headers is not in the correct format (\(name): \(value))."
        )
    }

    /// 400 InvalidQueryParameterValue: a parameter whose value cannot be used.
    package static func invalidQueryParameterValue(_ name: String) -> Self {
        Self(
            status: 400,
            code: "InvalidQueryParameterValue",
            "The value for one of the query parameters specified in the request URI is invalid (\(name))."
        )
    }

    /// 400 InvalidQueryParameterValue for a `comp` the Blob service does not have.
    package static func unknownComp(_ comp: String) -> Self {
        Self(
            status: 400,
            code: "InvalidQueryParameterValue",
            "Value for one of the query parameters specified in the request URI is invalid (comp=\(comp))."
        )
    }

    /// 400 OutOfRangeQueryParameterValue.
    package static func outOfRangeQueryParameterValue(_ parameter: String) -> Self {
        Self(
            status: 400,
            code: "OutOfRangeQueryParameterValue",
            "One of the query parameters specified in the request URI is outside the permissible range (\(parameter))."
        )
    }

    /// 400 InvalidMd5: a `Content-MD5` that is not 16 bytes in base64.
    package static var invalidMD5: Self {
        Self(
            status: 400,
            code: "InvalidMd5",
            "The MD5 value specified in the request is invalid. The MD5 value must be 128 bits and Base64-encoded."
        )
    }

    /// 400 Md5Mismatch: a `Content-MD5` of other bytes than the body.
    package static var md5Mismatch: Self {
        Self(
            status: 400,
            code: "Md5Mismatch",
            "The MD5 value specified in the request did not match with the MD5 value calculated by the server."
        )
    }

    /// 400 InvalidXmlDocument: a body that is not the XML the operation takes.
    package static func invalidXMLDocument(_ message: String) -> Self {
        Self(status: 400, code: "InvalidXmlDocument", message)
    }

    /// 400 InvalidResourceName: a container name outside Azure's rules.
    package static func invalidContainerName(_ name: String) -> Self {
        invalidResourceName("The specifed resource name contains invalid characters (container '\(name)').")
    }

    /// 400 InvalidResourceName: a name with characters Azure does not allow.
    package static func invalidResourceName(_ message: String) -> Self {
        Self(status: 400, code: "InvalidResourceName", message)
    }

    /// 400 OutOfRangeInput: a container name shorter than 3 or longer than 63 characters (Azurite:
    /// src/blob/utils/utils.ts `validateContainerName`, src/blob/errors/StorageErrorFactory.ts
    /// `getOutOfRangeName`).
    package static func containerNameLength(_ name: String) -> Self {
        Self(
            status: 400,
            code: "OutOfRangeInput",
            "The specified resource name length is not within the permissible limits (container '\(name.prefix(80))')."
        )
    }

    /// 404 ContainerNotFound.
    package static var containerNotFound: Self {
        Self(status: 404, code: "ContainerNotFound", "The specified container does not exist.")
    }

    /// 404 BlobNotFound.
    package static var blobNotFound: Self {
        Self(status: 404, code: "BlobNotFound", "The specified blob does not exist.")
    }

    /// 404 ResourceNotFound: also the answer to an anonymous request for what is not public, so that
    /// a private name is not revealed.
    package static var resourceNotFound: Self {
        Self(status: 404, code: "ResourceNotFound", "The specified resource does not exist.")
    }

    /// 405 UnsupportedHttpVerb: the resource has no operation for the request's method.
    package static var unsupportedHTTPVerb: Self {
        Self(status: 405, code: "UnsupportedHttpVerb", "The resource doesn't support specified Http Verb.")
    }

    /// 412 ConditionNotMet: a conditional header that does not hold.
    package static var conditionNotMet: Self {
        Self(
            status: 412,
            code: "ConditionNotMet",
            "The condition specified using HTTP conditional header(s) is not met."
        )
    }

    /// 400 InvalidBlobOrBlock: a block whose id is of another length than the blob's other
    /// uncommitted blocks' (Azurite: src/blob/persistence/LokiBlobMetadataStore.ts `stageBlock`).
    package static var invalidBlobOrBlock: Self {
        Self(status: 400, code: "InvalidBlobOrBlock", "The specified blob or block content is invalid.")
    }

    /// 409 ContainerAlreadyExists.
    package static var containerAlreadyExists: Self {
        Self(status: 409, code: "ContainerAlreadyExists", "The specified container already exists.")
    }

    /// 413 RequestBodyTooLarge: a body over the operation's limit. The status line says "Content
    /// Too Large", as it always has for blobs (the Table service's says "Payload Too Large").
    package static var requestBodyTooLarge: Self {
        var error = Self(
            status: 413,
            code: "RequestBodyTooLarge",
            "The request body is too large and exceeds the maximum permissible limit."
        )
        error.reasonPhrase = "Content Too Large"
        return error
    }

    /// 416 with the blob's size in `Content-Range: bytes */<size>`, so that a client can ask again.
    package static func rangeNotSatisfiable(_ error: StorageError, size: Int) -> Self {
        var wire = Self(error)
        wire.headers = [WireReply.Header("Content-Range", "bytes */\(size)")]
        return wire
    }
}

/// The errors of metadata and properties.
extension BlobServiceError {
    /// 400 InvalidMetadata: a metadata name that is not a C# identifier (Azurite's text,
    /// src/blob/errors/StorageErrorFactory.ts `getInvalidMetadata`).
    package static func invalidMetadata(_ name: String) -> Self {
        Self(
            status: 400,
            code: "InvalidMetadata",
            "The metadata specified is invalid. It has characters that are not permitted. (x-ms-meta-\(name))"
        )
    }
}
