internal import CLibXML2

/// An XML element and everything in it, read whole: what the Blob service's request and reply bodies
/// (block lists, listings, error bodies) need, read by libxml2 rather than by hand.
///
/// Safety as for the Atom reader: no network, no DTD loaded, no entities substituted, so a hostile
/// body cannot make the parser fetch or expand anything.
package struct XMLTree: Hashable, Sendable {
    /// The local name (no namespace prefix).
    package var name: String
    package var attributes: [String: String]
    /// The element's own text, concatenated (character data and CDATA).
    package var text: String
    package var children: [XMLTree]

    /// The first child of that name.
    package func child(_ name: String) -> XMLTree? { children.first { $0.name == name } }

    /// Parses a whole document; the error says what is wrong and on which line.
    package init(parsing bytes: [UInt8]) throws(XMLTreeError) {
        guard !bytes.isEmpty else { throw XMLTreeError(message: "the document is empty", line: 1) }
        guard bytes.count <= Int(Int32.max) else { throw XMLTreeError(message: "the document is too large", line: 0) }
        speakeasy_silence_generic_errors()
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlReadMemory($0, Int32(buffer.count), nil, nil, options)
            }
        }
        guard let document else {
            let error = xmlGetLastError()
            var message = error.flatMap { $0.pointee.message.map { String(cString: $0) } }
            while message?.last?.isWhitespace == true { message?.removeLast() }
            throw XMLTreeError(message: message ?? "not well-formed XML", line: Int(error?.pointee.line ?? 0))
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else {
            throw XMLTreeError(message: "the document has no root element", line: 1)
        }
        self = Self.element(root)
    }

    private init(name: String, attributes: [String: String], text: String, children: [XMLTree]) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    private static func element(_ node: xmlNodePtr) -> XMLTree {
        var attributes: [String: String] = [:]
        var attribute = node.pointee.properties
        while let current = attribute {
            let name = String(cString: current.pointee.name)
            // An attribute's value is its text children (entities are not substituted).
            var value = ""
            var part = current.pointee.children
            while let text = part {
                if let content = text.pointee.content { value += String(cString: content) }
                part = text.pointee.next
            }
            attributes[name] = value
            attribute = current.pointee.next
        }
        var text = ""
        var children: [XMLTree] = []
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE: children.append(element(current))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = current.pointee.content { text += String(cString: content) }
            default: break
            }
            child = current.pointee.next
        }
        return XMLTree(name: String(cString: node.pointee.name), attributes: attributes, text: text, children: children)
    }
}

/// An XML body that could not be read.
package struct XMLTreeError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    package var line: Int
    package var description: String { "line \(line): \(message)" }
}
