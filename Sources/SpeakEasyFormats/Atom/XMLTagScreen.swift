import SpeakEasyCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Looks at the tags on the bytes' way to libxml2, for two things libxml2 does not do well:
///
/// - It compares a start tag's attributes pair by pair (100,000 attributes took 25 s): a tag with
///   more than ``maximumAttributes`` is refused before libxml2 reads past the bound.
/// - It keeps an element's line in 16 bits: from line 65,535 on, every element says 65,535. The
///   screen counts lines itself and queues the line of each start tag from there on; libxml2 makes
///   one element per start tag, in document order, so the reader pairs them up (``nextLargeLine()``).
///
/// A light scan that keeps its state across chunks: text is skipped with `memchr`; in a tag each
/// quoted value is one attribute; comments, CDATA sections, processing instructions and declarations
/// are skipped whole, so quotes and `<` in them count for nothing. Lines are counted sixteen bytes at
/// a time, and only where they matter: for a refused tag, and in chunks that reach line 65,535.
struct XMLTagScreen {
    /// Far beyond any Atom element (an entry has one attribute, the feed's root four or five), and
    /// small enough that libxml2's pairwise check stays under a millisecond a tag.
    static let maximumAttributes = 1000
    /// The first line libxml2 does not keep in an element (it says 65,535 for it and all after).
    static let firstLargeLine = 65535

    private enum State {
        case text
        /// After `<`, and after `<!`.
        case open, bang
        /// In a tag (start, end or declaration), inside a quoted value when `quote` is set.
        case tag(quote: UInt8?)
        /// In a comment, CDATA section or processing instruction, `matched` bytes into its end
        /// (`-->`, `]]>`, `?>`).
        case skipped(end: StaticString, matched: Int)
    }

    private var state = State.text
    private var attributes = 0
    /// Whether the tag being scanned is a start tag (or an empty-element tag).
    private var isStartTag = false
    /// The line and column of the chunk's first byte (``TextPosition``: the reader compares
    /// libxml2's errors with the refused tag's place).
    private var line = 1
    private var column = 1
    /// Where the current tag's `<` is: its line once counted (column 0 until the chunk ends), its
    /// line and column when the chunk ends inside the tag.
    private var tagAt: (line: Int, column: Int)?
    /// The `<`'s index in the current chunk while `tagAt` is not yet known.
    private var tagIndex: Int?
    /// Lines counted in the current chunk up to `countedTo` (only in chunks that reach 65,535).
    private var countedTo = 0
    private var countedLine = 1
    /// The lines of start tags from line 65,535 on that the reader has not taken yet.
    private var largeLines: [Int] = []
    private var largeLinesTaken = 0

    /// Where the refused tag starts, once one was found.
    private(set) var refusedTagAt: (line: Int, column: Int)?

    /// Whether any start tag was at line 65,535 or later (the reader then pairs up elements).
    private(set) var hasLargeLines = false

    /// After the input's last chunk: the comment, CDATA section or processing instruction it ends
    /// inside, and where that starts. libxml2 then says only that the document ends early, at a
    /// place that depends on how its input arrived (pieces and the whole file would differ).
    var unterminated: (what: String, line: Int, column: Int)? {
        guard case .skipped(let end, _) = state, let tagAt else { return nil }
        switch end.utf8Start[0] {
        case UInt8(ascii: "]"): return ("CDATA section (<![CDATA[ without ]]>)", tagAt.line, tagAt.column)
        case UInt8(ascii: "-"): return ("comment (<!-- without -->)", tagAt.line, tagAt.column)
        default: return ("processing instruction (<? without ?>)", tagAt.line, tagAt.column)
        }
    }

    /// Where the comment, CDATA section or processing instruction that the bytes scanned so far end
    /// inside starts; nil outside one.
    var openSkippedAt: (line: Int, column: Int)? {
        guard case .skipped = state else { return nil }
        return tagAt
    }

    /// The line of the next start tag at line 65,535 or later, in document order.
    mutating func nextLargeLine() -> Int? {
        guard largeLinesTaken < largeLines.count else { return nil }
        defer {
            largeLinesTaken += 1
            if largeLinesTaken >= 4096, largeLinesTaken * 2 >= largeLines.count {
                largeLines.removeFirst(largeLinesTaken)
                largeLinesTaken = 0
            }
        }
        return largeLines[largeLinesTaken]
    }

    /// Scans the next chunk; returns how many of its bytes may go to libxml2: all of them, or the
    /// bytes before the quote of the attribute past the bound (then ``refusedTagAt`` is set).
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        var index = 0
        let count = bytes.count
        // Each byte adds at most one line: most chunks cannot reach 65,535 and count no lines.
        let countsLines = line + count >= Self.firstLargeLine
        (countedTo, countedLine) = (0, line)
        while index < count {
            switch state {
            case .text:
                guard let found = memchr(base + index, Int32(UInt8(ascii: "<")), count - index) else {
                    index = count
                    continue
                }
                index = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                state = .open
                tagIndex = index - 1
                tagAt = nil
                attributes = 0
            case .open:
                switch base[index] {
                case UInt8(ascii: "!"): state = .bang
                case UInt8(ascii: "?"): state = .skipped(end: "?>", matched: 0)
                case let byte:
                    state = .tag(quote: nil)
                    isStartTag = byte != UInt8(ascii: "/")
                    if isStartTag, countsLines, let tagIndex { tagAt = (lineCounted(to: tagIndex, in: bytes), 0) }
                }
                index += 1
            case .bang:
                switch base[index] {
                case UInt8(ascii: "-"): state = .skipped(end: "-->", matched: 0)
                case UInt8(ascii: "["): state = .skipped(end: "]]>", matched: 0)
                default:
                    state = .tag(quote: nil)  // a declaration: no attributes, but quoted literals
                    isStartTag = false
                }
                index += 1
            case .skipped(let end, var matched):
                let terminator = end.utf8Start
                while index < count, matched < end.utf8CodeUnitCount {
                    let byte = base[index]
                    if byte == terminator[matched] {
                        matched += 1
                    } else if matched == 0 || byte != terminator[0] || byte != terminator[matched - 1] {
                        // (A run of the first byte keeps what matched: "--->", "]]]>" and "??>" end too.)
                        matched = byte == terminator[0] ? 1 : 0
                    }
                    index += 1
                }
                state = matched == end.utf8CodeUnitCount ? .text : .skipped(end: end, matched: matched)
            case .tag(let quote?):
                guard let found = memchr(base + index, Int32(quote), count - index) else {
                    index = count
                    continue
                }
                index = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                state = .tag(quote: nil)
            case .tag(quote: nil):
                let byte = base[index]
                if byte == UInt8(ascii: ">") {
                    state = .text
                    // libxml2 gives an element the line of its start tag's end, so that decides;
                    // the line told is that of the `<`.
                    if isStartTag, countsLines, lineCounted(to: index, in: bytes) >= Self.firstLargeLine {
                        largeLines.append(tagAt?.line ?? countedLine)
                        hasLargeLines = true
                    }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    if isStartTag { attributes += 1 }
                    if attributes > Self.maximumAttributes {
                        if tagIndex != nil { tagAt = position(of: tagIndex!, in: bytes) }
                        refusedTagAt = tagAt
                        return index
                    }
                    state = .tag(quote: byte)
                }
                index += 1
            }
        }
        if let tagIndex {
            switch state {
            case .text: break
            default: tagAt = position(of: tagIndex, in: bytes)
            }
        }
        tagIndex = nil
        (line, column) = position(of: count, in: bytes)
        return count
    }

    /// The line of the chunk's byte `index`, counting on from where the last call stopped (indexes
    /// only grow within a chunk, so a chunk is counted once).
    private mutating func lineCounted(to index: Int, in bytes: UnsafeRawBufferPointer) -> Int {
        let range = UnsafeRawBufferPointer(rebasing: bytes[countedTo..<index])
        countedLine += SWAR.count(of: UInt8(ascii: "\n"), in: range.assumingMemoryBound(to: UInt8.self))
        countedTo = index
        return countedLine
    }

    /// The line and column (``TextPosition``) of the chunk's byte `index`.
    private func position(of index: Int, in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
        TextPosition.after(
            UnsafeRawBufferPointer(rebasing: bytes[..<index]).assumingMemoryBound(to: UInt8.self),
            line: line,
            column: column
        )
    }
}
