/// The body of a Blob service error, as Azure writes it:
/// `<Error><Code>BlobNotFound</Code><Message>The specified blob does not exist.\nRequestId:…\nTime:…</Message></Error>`.
///
/// Clients read the code (the SDKs raise on it); the message ends, as Azure's does, with the request
/// id and the time, so a user can quote both. Authentication failures add the detail that says why.
package enum BlobErrorBody {
    package static func xml(
        code: String,
        message: String,
        requestID: String,
        time: String,
        authenticationDetail: String? = nil
    ) -> [UInt8] {
        var xml = BlobXML()
        xml.open("Error")
        xml.element("Code", code)
        xml.element("Message", "\(message)\nRequestId:\(requestID)\nTime:\(time)")
        if let authenticationDetail { xml.element("AuthenticationErrorDetail", authenticationDetail) }
        xml.close("Error")
        return xml.bytes
    }

    /// Reads a body back (the client): its code, and its message without the RequestId and Time
    /// lines; nil for what the body does not hold (it may be no error body at all).
    package static func read(_ body: [UInt8]) -> (code: String?, message: String?) {
        let text = String(decoding: body, as: UTF8.self)
        return (
            XMLText.elementText("Code", in: text),
            XMLText.elementText("Message", in: text).map { TableErrorBody.splitMessage($0).message }
        )
    }
}
