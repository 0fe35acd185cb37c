internal import FoundationEssentials
import SpeakEasyFormats
package import SpeakEasyModel

/// The body of a Table service error response, in both of Azure's forms, written by the server and
/// read back by the client:
///
/// - JSON: `{"odata.error":{"code":"…","message":{"lang":"en-US","value":"…\nRequestId:…\nTime:…"}}}`
///   (Content-Type echoing the `Accept` level, ``TableWireFormat/errorContentType``);
/// - Atom clients: `<?xml …?><error xmlns="…/dataservices/metadata"><code>…</code><message
///   xml:lang="en-US">…</message></error>`.
///
/// The message ends with the request's id and the time on their own lines, as Azure's do (clients
/// show the whole text); a batch operation's error starts `<index>:`, which is how clients find the
/// failing operation. Azure's table errors carry no `x-ms-error-code` header: the body is the code.
package enum TableErrorBody {
    /// The body for `error` in `format`; `requestID` and `time` end the message.
    package static func write(
        _ error: TableServiceError,
        format: TableWireFormat,
        requestID: String,
        time: EdmDateTime
    ) -> [UInt8] {
        let text = messageText(error, requestID: requestID, time: time)
        switch format {
        case .json:
            var out = Array(#"{"odata.error":{"code":"#.utf8)
            JSONEntityWriter.appendString(error.code, to: &out)
            out += #","message":{"lang":"en-US","value":"#.utf8
            JSONEntityWriter.appendString(text, to: &out)
            out += "}}}".utf8
            return out
        case .atom:
            var out = Array(#"<?xml version="1.0" encoding="utf-8" standalone="yes"?>"#.utf8)
            out += #"<error xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><code>"#.utf8
            out += XMLText.text(error.code).utf8
            out += #"</code><message xml:lang="en-US">"#.utf8
            out += XMLText.text(text).utf8
            out += "</message></error>".utf8
            return out
        }
    }

    /// `[<index>:]<message>\nRequestId:<id>\nTime:<time with 7 digits>`.
    static func messageText(_ error: TableServiceError, requestID: String, time: EdmDateTime) -> String {
        let index = error.operationIndex.map { "\($0):" } ?? ""
        return "\(index)\(error.message)\nRequestId:\(requestID)\nTime:\(time.description)"
    }

    /// Reads an error body of either form (told apart by its first byte), with the response's
    /// `status`: the code, the message without its RequestId and Time lines, and the failing batch
    /// operation's index when the message starts with one. Nil when the body is neither form.
    package static func read(_ body: [UInt8], status: Int) -> TableServiceError? {
        let start = body.firstIndex {
            !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF)
        }
        guard let start else { return nil }
        let parsed: (code: String, text: String)?
        if body[start] == UInt8(ascii: "{") {
            parsed = readJSON(body)
        } else if body[start] == UInt8(ascii: "<") {
            parsed = readXML(String(decoding: body, as: UTF8.self))
        } else {
            parsed = nil
        }
        guard let parsed else { return nil }
        let (index, message) = splitMessage(parsed.text)
        return TableServiceError(status: status, code: parsed.code, message, operationIndex: index)
    }

    private struct JSONBody: Decodable {
        struct Inner: Decodable {
            struct Message: Decodable { var value: String }
            var code: String
            var message: Message?
        }
        var error: Inner
        enum CodingKeys: String, CodingKey { case error = "odata.error" }
    }

    private static func readJSON(_ body: [UInt8]) -> (String, String)? {
        guard let decoded = try? JSONDecoder().decode(JSONBody.self, from: Data(body)) else { return nil }
        return (decoded.error.code, decoded.error.message?.value ?? "")
    }

    private static func readXML(_ text: String) -> (String, String)? {
        guard let code = XMLText.elementText("code", in: text) else { return nil }
        return (code, XMLText.elementText("message", in: text) ?? "")
    }

    /// Splits `1:The batch request…\nRequestId:…\nTime:…` into 1 and `The batch request…`.
    static func splitMessage(_ text: String) -> (index: Int?, message: String) {
        var message = Substring(text)
        if let range = message.firstRange(of: "\nRequestId:") { message = message[..<range.lowerBound] }
        var index: Int?
        if let colon = message.firstIndex(of: ":"), colon > message.startIndex, message[..<colon].count <= 3,
            message[..<colon].allSatisfy(\.isASCIIDigit), let number = Int(message[..<colon])
        {
            index = number
            message = message[message.index(after: colon)...]
        }
        return (index, String(message))
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
