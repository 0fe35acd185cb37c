internal import CLibXML2

/// Walks on through the nodes libxml2 parsed but its text reader never handed out, after a read
/// failed.
///
/// libxml2's text reader feeds its parser 512 bytes at a time, ahead of the node it hands out. When
/// that look-ahead meets a well-formedness error, the read fails, and everything the chunk held before
/// the error (the rest of an entry, whole entries, the root element) is in the document tree but is
/// never handed out. A reader of a piece that ends before the error is handed all of it, and reports
/// what is wrong there first. So that the first error is the document's first, wherever the input was
/// cut, the reader goes on through the tree in document order with this cursor, as the text reader
/// would have: a start tag, the children, an end tag (none for `<a/>`). It stops at an element the
/// parser has not closed (``Swift/UnsafeMutablePointer/isInside(_:)``), and the reader stops at a node
/// on or after the error's line. (Fuzz findings: Fuzz/Regressions/pieces/atom-root-*-before-bad-char,
/// atom-bad-value-before-bad-name and atom-entry-cut-off-by-a-broken-start-tag.)
struct AtomTreeReplay {
    /// The current node, and whether it is being visited as an end tag.
    private(set) var node: xmlNodePtr
    private(set) var isEnd: Bool
    /// As `xmlTextReaderDepth`: the root element is at 0.
    private(set) var depth: Int32
    /// The current node is still to be handed out (the first `advance()` stays on it).
    private var pending: Bool
    private let parser: UnsafeMutablePointer<xmlParserCtxt>

    /// Goes on from the node the text reader last handed out (`handedOut`, as an end tag when
    /// `wasEnd`), or, when the reader had moved on to a node it did not hand out, from that one.
    /// Nil when the parser built no document.
    init?(parser: UnsafeMutablePointer<xmlParserCtxt>, readerNode: xmlNodePtr?, handedOut: xmlNodePtr?, wasEnd: Bool) {
        self.parser = parser
        if let readerNode, readerNode == handedOut {
            (node, isEnd, pending) = (readerNode, wasEnd, false)
        } else if let readerNode {
            // The text reader moves to the next node before it makes sure the node is complete (and frees
            // the one it handed out): that next node is the first not handed out.
            (node, isEnd, pending) = (readerNode, false, true)
        } else if let first = parser.pointee.myDoc?.pointee.children {
            (node, isEnd, pending) = (first, false, true)
        } else {
            return nil
        }
        depth = Int32(elementDepth(node))
    }

    /// The text reader's mark, in a node's `extra`, on an element written `<a/>` (`NODE_IS_EMPTY`).
    private static let writtenEmpty: UInt16 = 1

    /// Whether the current node is an element written `<a/>`.
    var isEmptyElement: Bool {
        !isEnd && node.pointee.type == XML_ELEMENT_NODE && node.pointee.children == nil
            && node.pointee.extra & Self.writtenEmpty != 0
    }

    /// Moves to the next node in document order; false when the tree ends there, or what comes next is
    /// not parsed yet (an element the parser had not closed when it failed).
    mutating func advance() -> Bool {
        if pending {
            pending = false
            return true
        }
        if !isEnd, node.pointee.type == XML_ELEMENT_NODE {
            if let child = node.pointee.children {
                node = child
                depth += 1
                return true
            }
            if parser.isInside(node) { return false }
            if node.pointee.extra & Self.writtenEmpty == 0 {
                isEnd = true
                return true
            }
        }
        if let next = node.pointee.next {
            (node, isEnd) = (next, false)
            return true
        }
        guard let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE, !parser.isInside(parent) else {
            return false
        }
        (node, isEnd) = (parent, true)
        depth -= 1
        return true
    }
}

extension UnsafeMutablePointer where Pointee == xmlParserCtxt {
    /// Whether the parser is still inside `element` (its end tag not read).
    ///
    /// A node after the element proves its end tag was read. Otherwise the parser's stack of open
    /// names says: at the element's depth, its name. (Not its stack of open nodes: after a start tag it
    /// cannot finish, libxml2 pops a node it never pushed for that tag, so the enclosing element looks
    /// closed; a fuzz finding, an entry cut off by a malformed tag reported as an entry without keys.)
    func isInside(_ element: xmlNodePtr) -> Bool {
        if element.pointee.next != nil { return false }
        let depth = elementDepth(element)
        guard depth < Int(pointee.nameNr), let names = pointee.nameTab, let name = names[depth] else { return false }
        return xmlStrEqual(name, element.pointee.name) != 0
    }
}

/// How many elements enclose `node` (the root element's depth is 0).
private func elementDepth(_ node: xmlNodePtr) -> Int {
    var depth = 0
    var parent = node.pointee.parent
    while let current = parent, current.pointee.type == XML_ELEMENT_NODE {
        depth += 1
        parent = current.pointee.parent
    }
    return depth
}
