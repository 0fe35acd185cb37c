import SpeakEasyCore
package import SpeakEasyFormats

/// The body format of a Table service response, chosen from the request's `Accept` header.
///
/// Azure answers JSON at the metadata level `Accept` names (`application/json;odata=fullmetadata`),
/// minimal metadata when `Accept` says JSON without a level, and Atom to clients that ask for
/// `application/atom+xml` (the legacy SDK). A request without `Accept` gets Atom from versions
/// before 2015-12-11 (the legacy SDK sends none, and expects Atom) and minimal metadata JSON after.
package enum TableWireFormat: Equatable, Sendable {
    case json(JSONMetadata)
    case atom

    /// The first JSON version that answers JSON when `Accept` is absent.
    static let jsonByDefaultVersion = "2015-12-11"
    /// The first version that speaks JSON at all: older ones answer JSON with 415 JsonFormatNotSupported.
    static let firstJSONVersion = "2013-08-15"

    /// Whether a request names JSON, in `Accept` or its body's `Content-Type`, with a version
    /// (`x-ms-version`) from before JSON.
    package static func asksJSONTooEarly(_ head: RequestHead) -> Bool {
        guard let version = head.header("x-ms-version"), version < firstJSONVersion else { return false }
        let named = { (header: String?) in header?.containsIgnoringASCIICase("application/json") == true }
        return named(head.header("Accept")) || named(head.header("Content-Type"))
    }

    /// The format to answer `head` in, its errors included: what `Accept` asks for, or Atom when the
    /// request names JSON with a version from before JSON.
    package init(answering head: RequestHead) {
        self =
            Self.asksJSONTooEarly(head)
            ? .atom : Self(accept: head.header("Accept"), version: head.header("x-ms-version"))
    }

    /// The format to answer a request with `accept` (its `Accept` header) and `version`
    /// (`x-ms-version`); parameters are read tolerantly (spaces, case, any order).
    package init(accept: String?, version: String? = nil) {
        guard let accept, !accept.trimmingASCIISpaces.isEmpty else {
            // Versions are ISO dates, so text order is time order.
            self = (version ?? Self.jsonByDefaultVersion) < Self.jsonByDefaultVersion ? .atom : .json(.minimal)
            return
        }
        // What the SDKs send, without parsing.
        switch accept {
        case "application/json;odata=minimalmetadata":
            self = .json(.minimal)
            return
        case "application/json;odata=nometadata":
            self = .json(.none)
            return
        case "application/json;odata=fullmetadata":
            self = .json(.full)
            return
        default: break
        }
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { Substring($0.trimmingASCIISpaces).lowercased() }
            guard let type = parts.first else { continue }
            if type == "application/json" {
                let level = parts.dropFirst().first { $0.hasPrefix("odata=") }.map { String($0.dropFirst(6)) }
                self = .json(level.flatMap(JSONMetadata.init(rawValue:)) ?? .minimal)
                return
            }
            if type == "application/atom+xml" || type == "application/xml" {
                self = .atom
                return
            }
        }
        self = .json(.minimal)
    }

    /// The `Content-Type` of a body in this format, as Azure writes it.
    package var contentType: String {
        switch self {
        case .json(let level): "application/json;odata=\(level.rawValue);streaming=true;charset=utf-8"
        case .atom: "application/atom+xml;charset=utf-8"
        }
    }

    /// The `Content-Type` of an error body: Atom clients get plain XML.
    package var errorContentType: String {
        switch self {
        case .json: contentType
        case .atom: "application/xml"
        }
    }

    /// The format a response's `Content-Type` announces (for the client), or nil when it is neither.
    package init?(contentType: String) {
        let type = contentType.split(separator: ";").first.map { Substring($0.trimmingASCIISpaces).lowercased() } ?? ""
        switch type {
        case "application/json": self.init(accept: contentType)
        case "application/atom+xml", "application/xml": self = .atom
        default: return nil
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (header values; no Foundation needed).
    var trimmingASCIISpaces: SubSequence {
        let isSpace = { (c: Character) in c == " " || c == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
