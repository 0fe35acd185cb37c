package import SpeakEasyCore
package import SpeakEasyModel

/// Reads a piece of an Atom feed held in memory (``AtomFeedSplitter``) with libxml2's SAX2 parser,
/// and hands the reading to ``AtomEntityReader`` whenever the piece is out of the ordinary.
///
/// The streaming text reader that ``AtomEntityReader`` is built on makes a tree node for every tag
/// and text, and frees it again: on a feed as Azure writes it, that was half of libxml2's time and
/// more than all of `xmllint --stream`'s (issue 31's profile). SAX2 hands over the same parse as
/// callbacks, with no tree. But the text reader's answers on a bad document (which error, at which
/// line and column, after which entities) come from its own order of work, and are not worth
/// building twice. So this reader parses the whole piece first and hands out nothing until it is
/// done; anything the ordinary path does not expect — any libxml2 error or warning, a DOCTYPE, a
/// root other than `<feed>`, an entry that is not a child of it, a property with a problem, a
/// line past 65,535, a text over 1 MB — drops what it found, and the text reader reads the piece
/// from its start. The two readers agree on every input: the Atom tests and the `atom` fuzz target
/// check it.
package final class AtomPieceReader: StagedEntityReader {
    package private(set) var entityLine = 0
    /// Whether the text reader read the piece (for tests).
    package var readByTextReader: Bool { fallback != nil }

    private let source: String
    private let origin: TextOrigin
    private var bytes: [UInt8]
    private var entries: [AtomRawEntry] = []
    private var parsed = false
    private var fallback: AtomEntityReader?

    /// Reads `bytes`, a piece of the file `source` that starts at `origin`.
    package init(bytes: [UInt8], source: String, origin: TextOrigin) {
        self.bytes = bytes
        self.source = source
        self.origin = origin
    }

    package func next() throws(FormatError) -> Entity? {
        try nextStaged()?.entity()
    }

    package func nextStaged() throws(FormatError) -> (any StagedEntity)? {
        if !parsed { parse() }
        if let fallback {
            let staged = try fallback.nextStaged()
            entityLine = fallback.entityLine
            return staged
        }
        // In reverse order, so that each is moved out, not copied.
        guard let entry = entries.popLast() else { return nil }
        entityLine = entry.line
        return entry
    }

    private func parse() {
        parsed = true
        if let found = AtomSAXParse.entries(of: bytes, source: source, origin: origin) {
            entries = found
            entries.reverse()
        } else {
            fallback = AtomEntityReader(input: ByteInput(name: source, bytes: bytes), origin: origin)
        }
        bytes = []
    }
}
