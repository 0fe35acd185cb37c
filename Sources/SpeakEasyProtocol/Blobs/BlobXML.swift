package import SpeakEasyFormats

/// A little XML document written element by element, as the Blob service's bodies are: no
/// namespaces, no whitespace between elements, and empty values as self-closing elements
/// (`<Content-Encoding />`), as Azure writes them.
package struct BlobXML {
    package private(set) var bytes: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"utf-8\"?>".utf8)

    package init() {}

    package mutating func open(_ name: String, attributes: [(String, String)] = []) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(contentsOf: name.utf8)
        for (attribute, value) in attributes {
            bytes.append(UInt8(ascii: " "))
            bytes.append(contentsOf: attribute.utf8)
            bytes.append(contentsOf: "=\"".utf8)
            XMLEscaping.appendAttribute(value, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: ">"))
    }

    package mutating func close(_ name: String) {
        bytes.append(contentsOf: "</".utf8)
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: ">"))
    }

    /// `<name>text</name>`, or `<name />` for empty text.
    package mutating func element(_ name: String, _ text: String) {
        guard !text.isEmpty else {
            bytes.append(UInt8(ascii: "<"))
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: " />".utf8)
            return
        }
        open(name)
        XMLEscaping.appendText(text, to: &bytes)
        close(name)
    }
}
