/// Finds a `<!DOCTYPE` in a document's prolog before libxml2 sees it.
///
/// An OData payload never has a DTD, and a DTD is where every XML attack lives: external entities
/// (`file:///etc/passwd`), parameter entities that fetch URLs, and entity-expansion bombs. So the Atom
/// reader refuses any document with one. Checking the bytes on their way to libxml2 means the parser
/// never reads the declaration at all; checking the parsed node instead would come after libxml2 had
/// already parsed the DTD and possibly the first entity references behind it.
///
/// Only the prolog can hold a DOCTYPE, so the scan stops at the root element's `<`, after a few dozen
/// bytes; it skips the XML declaration, processing instructions and comments, whatever chunks the
/// input arrives in. It also tracks line and column so the refusal can say where.
struct DoctypeScanner {
    private enum State {
        case text, open, bang, processingInstruction, instructionQuestion, comment, commentDash, commentDashDash
        case done
    }

    private var state = State.text
    private(set) var line = 1
    private(set) var column = 1
    /// Where the `<` of `<!DOCTYPE` was, once found.
    private(set) var doctypeAt: (line: Int, column: Int)?
    private var openAt = (line: 1, column: 1)

    /// Whether the root element has been reached (nothing more to check).
    var isDone: Bool { state == .done }

    /// Scans the next bytes; returns false when a DOCTYPE was found (see ``doctypeAt``).
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Bool {
        for byte in bytes {
            if state == .done { return true }
            step(byte)
            if doctypeAt != nil { return false }
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1  // columns count characters, not UTF-8 continuation bytes
            }
        }
        return true
    }

    private mutating func step(_ byte: UInt8) {
        switch state {
        case .text:
            if byte == UInt8(ascii: "<") {
                state = .open
                openAt = (line, column)
            }
        case .open:
            switch byte {
            case UInt8(ascii: "?"): state = .processingInstruction
            case UInt8(ascii: "!"): state = .bang
            default: state = .done  // the root element (or garbage, which libxml2 reports)
            }
        case .bang:
            switch byte {
            case UInt8(ascii: "-"): state = .comment
            case UInt8(ascii: "D"), UInt8(ascii: "d"): doctypeAt = openAt
            default: state = .done
            }
        case .processingInstruction:
            if byte == UInt8(ascii: "?") { state = .instructionQuestion }
        case .instructionQuestion:
            state =
                byte == UInt8(ascii: ">")
                ? .text : byte == UInt8(ascii: "?") ? .instructionQuestion : .processingInstruction
        case .comment:
            if byte == UInt8(ascii: "-") { state = .commentDash }
        case .commentDash:
            state = byte == UInt8(ascii: "-") ? .commentDashDash : .comment
        case .commentDashDash:
            state = byte == UInt8(ascii: ">") ? .text : byte == UInt8(ascii: "-") ? .commentDashDash : .comment
        case .done:
            break
        }
    }
}
