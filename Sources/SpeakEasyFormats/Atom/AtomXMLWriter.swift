internal import CLibXML2

/// libxml2's `xmlTextWriter` writing into a memory buffer that is drained into the caller's bytes: the
/// judge of ``AtomMarkupWriter``, which the formatter writes with (the tests give both the same calls
/// and compare the bytes).
///
/// The formatter protocol hands us an `inout [UInt8]` per call, while libxml2 wants one output for the
/// writer's whole life; so the writer keeps its `xmlBuffer`, and ``flush(into:)`` moves what it holds
/// to the caller's array and empties it. Memory is bounded by one entry.
///
/// The calls here only fail when libxml2 runs out of memory or is driven out of order (a bug of ours),
/// so they trap rather than throw.
package final class AtomXMLWriter {
    private let buffer: xmlBufferPtr
    private let writer: xmlTextWriterPtr

    package init(indent: Bool) {
        _ = AtomNamespace.libraryInitialised
        guard let buffer = xmlBufferCreate(), let writer = xmlNewTextWriterMemory(buffer, 0) else {
            fatalError("libxml2 could not create a writer (out of memory)")
        }
        self.buffer = buffer
        self.writer = writer
        if indent {
            xmlTextWriterSetIndent(writer, 1)
            withXMLString("  ") { _ = xmlTextWriterSetIndentString(writer, $0) }
        }
    }

    deinit {
        xmlFreeTextWriter(writer)
        xmlBufferFree(buffer)
    }

    /// `<?xml version="1.0" encoding="utf-8" standalone="yes"?>`, as the service writes it. Written raw:
    /// `xmlTextWriterStartDocument` would spell the encoding `UTF-8` and route every byte through a
    /// UTF-8-to-UTF-8 converter; our strings are UTF-8 already.
    package func startDocument() {
        let declaration = "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n"
        check(withXMLString(declaration) { xmlTextWriterWriteRaw(writer, $0) }, "write the XML declaration")
    }

    package func endDocument() {
        check(xmlTextWriterEndDocument(writer), "end the document")
    }

    package func startElement(_ name: String) {
        check(withXMLString(name) { xmlTextWriterStartElement(writer, $0) }, "start <\(name)>")
    }

    package func endElement() {
        check(xmlTextWriterEndElement(writer), "end an element")
    }

    /// An attribute of the element just started; the writer escapes the value (`"`, `<`, `&`, CR, LF, tab).
    package func attribute(_ name: String, _ value: String) {
        let result = withXMLString(name) { name in
            withXMLString(value) { xmlTextWriterWriteAttribute(writer, name, $0) }
        }
        check(result, "write the attribute \(name)")
    }

    /// A whole element: attributes, then the text (escaped by the writer; CR becomes `&#13;`), if any.
    package func element(_ name: String, attributes: [(String, String)] = [], text: String? = nil) {
        startElement(name)
        for (attributeName, value) in attributes { attribute(attributeName, value) }
        if let text, !text.isEmpty {
            check(withXMLString(text) { xmlTextWriterWriteString(writer, $0) }, "write the text of <\(name)>")
        }
        endElement()
    }

    /// Moves everything written so far to `out`.
    package func flush(into out: inout [UInt8]) {
        check(xmlTextWriterFlush(writer), "flush")
        let count = Int(xmlBufferLength(buffer))
        if count > 0, let content = xmlBufferContent(buffer) {
            out.append(contentsOf: UnsafeBufferPointer(start: content, count: count))
        }
        xmlBufferEmpty(buffer)
    }

    private func check(_ result: Int32, _ what: @autoclosure () -> String) {
        if result < 0 { fatalError("libxml2's writer failed to \(what()) (out of memory?)") }
    }
}
