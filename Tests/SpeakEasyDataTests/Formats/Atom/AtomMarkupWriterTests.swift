import SpeakEasyData
import Testing

/// The Swift markup writer against libxml2's `xmlTextWriter` (``AtomXMLWriter``), byte for byte: the
/// same calls to both, the same bytes out.
@Suite("Atom markup writer, judged by libxml2's xmlTextWriter")
struct AtomMarkupWriterTests {
    enum Call {
        case startElement(String)
        case endElement
        case attribute(String, String)
        case element(String, [(String, String)], String?)
        case flush
        case endDocument
    }

    /// The bytes each writer makes of `calls`, after the XML declaration.
    static func written(_ calls: [Call], indent: Bool) -> (swift: [UInt8], libxml2: [UInt8]) {
        var swift = AtomMarkupWriter(indent: indent)
        let libxml2 = AtomXMLWriter(indent: indent)
        var swiftOut: [UInt8] = []
        var libxml2Out: [UInt8] = []
        swift.startDocument()
        libxml2.startDocument()
        for call in calls + [.endDocument, .flush] {
            switch call {
            case .startElement(let name):
                swift.startElement(name)
                libxml2.startElement(name)
            case .endElement:
                swift.endElement()
                libxml2.endElement()
            case .attribute(let name, let value):
                swift.attribute(name, value)
                libxml2.attribute(name, value)
            case .element(let name, let attributes, let text):
                swift.element(name, attributes: attributes, text: text)
                libxml2.element(name, attributes: attributes, text: text)
            case .flush:
                swift.flush(into: &swiftOut)
                libxml2.flush(into: &libxml2Out)
            case .endDocument:
                swift.endDocument()
                libxml2.endDocument()
            }
        }
        return (swiftOut, libxml2Out)
    }

    /// Text with everything either writer treats apart: markup characters, quotes, CR, LF and tab,
    /// 2-, 3- and 4-byte characters, at every offset of an eight-byte word.
    static let texts: [String] = {
        let specials = ["<", ">", "&", "\"", "'", "\r", "\n", "\t", "é", "€", "🎤", "\u{FF01}", "]]>", "&amp;"]
        var texts = ["", "plain", String(repeating: "long text without markup ", count: 40)]
        for special in specials {
            for offset in 0..<9 {
                texts.append(String(repeating: "a", count: offset) + special + String(repeating: "b", count: 20))
            }
        }
        texts.append(specials.joined())
        return texts
    }()

    static func feed(_ text: String) -> [Call] {
        [
            .startElement("feed"), .attribute("xml:base", "http://127.0.0.1:10000/x/"), .attribute("xmlns:d", "urn:d"),
            .element("title", [("type", "text")], "events"), .element("link", [("rel", "self"), ("href", "e")], nil),
            .flush,
            .startElement("entry"), .attribute("m:etag", "W/\"datetime'2026-01-01T00%3A00%3A00.1Z'\""),
            .element("title", [("type", "text")], ""), .startElement("author"), .element("name", [], nil), .endElement,
            .startElement("content"), .attribute("type", "application/xml"), .startElement("m:properties"),
            .element("d:Text", [], text), .element("d:Typed", [("m:type", "Edm.String")], text),
            .element("d:Attr", [("value", text)], nil), .endElement, .endElement, .endElement, .flush,
            .startElement("entry"), .element("d:Again", [("value", text)], text), .endElement,
        ]
    }

    @Test("a feed with each text as content and as an attribute value", arguments: [true, false])
    func sameBytes(indent: Bool) {
        for text in Self.texts {
            let (swift, libxml2) = Self.written(Self.feed(text), indent: indent)
            #expect(
                String(decoding: swift, as: UTF8.self) == String(decoding: libxml2, as: UTF8.self),
                "text \(text.debugDescription)"
            )
        }
    }

    @Test("elements nested deep, ended by the document's end, and empty ones", arguments: [true, false])
    func nesting(indent: Bool) {
        var calls: [Call] = []
        for depth in 0..<6 {
            calls.append(.startElement("e\(depth)"))
            if depth % 2 == 0 { calls.append(.attribute("n", "\(depth)")) }
            calls.append(.element("empty", [], nil))
        }
        calls += [.endElement, .element("after", [], "text")]
        let (swift, libxml2) = Self.written(calls, indent: indent)
        #expect(String(decoding: swift, as: UTF8.self) == String(decoding: libxml2, as: UTF8.self))
    }
}
