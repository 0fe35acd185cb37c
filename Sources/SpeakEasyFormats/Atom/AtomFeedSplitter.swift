package import SpeakEasyCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts an Atom feed into pieces that libxml2 parses on their own, so that several threads can share
/// one feed (parsing is most of the work of reading Atom).
///
/// A piece is a run of the root `<feed>`'s children, cut only between two of them. Every piece but
/// the first starts with a line of its own holding the document's XML declaration and the root's
/// start tag (lines map back through ``TextOrigin``); every piece but the last ends with the root's
/// end tag. So
/// the namespaces the root declares hold in every piece, and every byte of the feed is checked by
/// libxml2 in exactly one piece, in the same context as in the whole document: the pieces are all
/// well-formed exactly when the feed is.
///
/// Finding the cuts takes only a light scan: tags, with the depth of elements, comments, CDATA
/// sections and processing instructions; text is skipped with `memchr`. Whatever the scan does not
/// expect — a DOCTYPE, an encoding other than UTF-8, a root that is not a feed, no place to cut within
/// `limit` bytes, the root's end — makes the rest of the input one last piece, read as a stream: just
/// what a single reader would have seen.
package final class AtomFeedSplitter: InputSplitter {
    private var cutter: PieceCutter
    /// Where the scan goes on in the cutter's window.
    private var scanned = 0
    /// Open elements at `scanned`, the root included.
    private var depth = 0
    /// Whether the piece is long enough and at a place to cut: it is cut at the next markup, so that
    /// text after the last child (white space, as a rule) stays with it; at the end of the input it is
    /// the last piece, ending just as the whole document does.
    private var cutDue = false
    /// The XML declaration and the root's start tag, on a line of their own; the root's end tag.
    private var prefix: [UInt8] = []
    private var suffix: [UInt8] = []
    /// The line of the root's start tag.
    private var rootLine = 1

    /// Cuts `input` into pieces of about `pieceSize` bytes; `limit` bounds the bytes held in memory
    /// while looking for a place to cut.
    package init(input: ByteInput, pieceSize: Int = 1 << 20, limit: Int = 32 << 20) {
        cutter = PieceCutter(input: input, pieceSize: pieceSize, limit: limit)
    }

    package func nextPiece() throws(FormatError) -> InputPiece? {
        if cutter.finished { return nil }
        if cutter.pieces == 0, try !readProlog() { return lastPiece() }
        while true {
            switch scan(cutter.window.bytes) {
            case .cut(let end):
                return cutter.cut(
                    through: end,
                    prefix: cutter.pieces == 0 ? [] : prefix,
                    suffix: suffix,
                    origin: origin
                )
            case .stop:
                return lastPiece()
            case .more:
                if cutter.isOverLimit { return lastPiece() }
                guard try readMore() else { return lastPiece() }
            }
        }
    }

    /// The rest of the input as one piece, read as a stream.
    private func lastPiece() -> InputPiece {
        cutter.cutRest(prefix: cutter.pieces == 0 ? [] : prefix, origin: origin)
    }

    private var origin: TextOrigin {
        cutter.pieces == 0
            ? .start
            : TextOrigin(firstLine: 2, fileLine: cutter.line, fileColumn: cutter.column, addedLineSource: rootLine)
    }

    private func readMore() throws(FormatError) -> Bool {
        let (read, dropped) = try cutter.readMore()
        scanned -= dropped
        return read
    }

    // MARK: The prolog

    /// Finds the root start tag; false when the document is not one this splitter cuts.
    private func readProlog() throws(FormatError) -> Bool {
        while true {
            let bytes = cutter.window.bytes
            switch Self.prolog(bytes) {
            case .root(let declaration, let tag, let name):
                prefix = Self.oneLine(Array(bytes[declaration]) + bytes[tag]) + [UInt8(ascii: "\n")]
                rootLine =
                    1 + SWAR.count(of: UInt8(ascii: "\n"), in: UnsafeBufferPointer(rebasing: bytes[..<tag.lowerBound]))
                suffix = Array("</".utf8) + bytes[name] + Array(">".utf8)
                scanned = tag.upperBound
                depth = 1
                return true
            case .unsupported:
                return false
            case .more:
                guard cutter.window.count < 1 << 20, try readMore() else { return false }
            }
        }
    }

    private enum PrologOutcome {
        case root(declaration: Range<Int>, tag: Range<Int>, name: Range<Int>)
        case unsupported
        case more
    }

    /// Reads the prolog: an optional UTF-8 byte order mark and XML declaration, comments, processing
    /// instructions and white space, then the root start tag, which must be a (prefixed) `feed`.
    private static func prolog(_ bytes: UnsafeBufferPointer<UInt8>) -> PrologOutcome {
        guard bytes.count >= 4 else { return .more }
        // UTF-16 or UTF-32
        if bytes[0] == 0 || bytes[1] == 0 || bytes[0] == 0xFE || bytes[0] == 0xFF { return .unsupported }
        var index = bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        var declaration = index..<index
        while true {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index + 4 <= bytes.count else { return .more }
            guard bytes[index] == UInt8(ascii: "<") else { return .unsupported }
            switch bytes[index + 1] {
            case UInt8(ascii: "?"):
                guard let end = find("?>", in: bytes, from: index + 2) else { return .more }
                if matches("<?xml", in: bytes, at: index), isSpace(bytes[index + 5]) {
                    declaration = index..<(end + 2)
                    guard hasUTF8Encoding(UnsafeBufferPointer(rebasing: bytes[declaration])) else {
                        return .unsupported
                    }
                }
                index = end + 2
            case UInt8(ascii: "!"):
                guard matches("<!--", in: bytes, at: index) else { return .unsupported }  // a DOCTYPE
                guard let end = find("-->", in: bytes, from: index + 4) else { return .more }
                index = end + 3
            default:
                let end: Int
                switch tagEnd(in: bytes, from: index + 1) {
                case .at(let found): end = found
                case .more: return .more
                case .tooManyAttributes: return .unsupported
                }
                guard bytes[end - 1] != UInt8(ascii: "/") else { return .unsupported }  // an empty feed
                var nameEnd = index + 1
                while nameEnd < end, !isSpace(bytes[nameEnd]), bytes[nameEnd] != UInt8(ascii: "/"),
                    bytes[nameEnd] != UInt8(ascii: ">")
                { nameEnd += 1 }
                var localStart = nameEnd
                while localStart > index + 1, bytes[localStart - 1] != UInt8(ascii: ":") { localStart -= 1 }
                guard nameEnd - localStart == 4, matches("feed", in: bytes, at: localStart) else { return .unsupported }
                return .root(declaration: declaration, tag: index..<(end + 1), name: (index + 1)..<nameEnd)
            }
        }
    }

    /// Whether an XML declaration names no encoding, or UTF-8.
    private static func hasUTF8Encoding(_ declaration: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let at = find("encoding", in: declaration, from: 0) else { return true }
        var index = at + 8
        while index < declaration.count, isSpace(declaration[index]) || declaration[index] == UInt8(ascii: "=") {
            index += 1
        }
        guard index < declaration.count else { return false }
        let quote = declaration[index]
        guard let end = find(quote == UInt8(ascii: "'") ? "'" : "\"", in: declaration, from: index + 1) else {
            return false
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: declaration[(index + 1)..<end]), as: UTF8.self)
        return name.lowercased() == "utf-8"
    }

    /// The bytes with their line breaks made spaces (a CR LF pair one space), as attribute-value
    /// normalisation would make them anyway.
    private static func oneLine(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: "\n"), previous == UInt8(ascii: "\r") {
                previous = byte
                continue
            }
            result.append(byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") ? UInt8(ascii: " ") : byte)
            previous = byte
        }
        return result
    }

    // MARK: The scan

    private enum ScanOutcome {
        /// A place to cut, after a child of the root and the text after it, `pieceSize` bytes on.
        case cut(Int)
        /// Something not to cut through or after: the root's end, a DOCTYPE, junk.
        case stop
        /// The window ends before a place to cut.
        case more
    }

    /// Scans on from `scanned`, keeping `depth`, to the next place to cut.
    private func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> ScanOutcome {
        let base = bytes.baseAddress!
        var index = scanned
        defer { scanned = index }
        while true {
            guard index < bytes.count, let found = memchr(base + index, Int32(UInt8(ascii: "<")), bytes.count - index)
            else {
                index = bytes.count
                return .more
            }
            let open = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            index = open
            if cutDue {
                cutDue = false
                return .cut(open)
            }
            guard open + 1 < bytes.count else { return .more }
            switch bytes[open + 1] {
            case UInt8(ascii: "/"):
                guard let end = Self.find(">", in: bytes, from: open + 2) else { return .more }
                index = end + 1
                depth -= 1
                if depth <= 0 { return .stop }
                cutDue = depth == 1 && index - cutter.start >= cutter.pieceSize
            case UInt8(ascii: "!"):
                guard open + 9 <= bytes.count else { return .more }
                if Self.matches("<!--", in: bytes, at: open) {
                    guard let end = Self.find("-->", in: bytes, from: open + 4) else { return .more }
                    index = end + 3
                } else if Self.matches("<![CDATA[", in: bytes, at: open) {
                    guard let end = Self.find("]]>", in: bytes, from: open + 9) else { return .more }
                    index = end + 3
                } else {
                    return .stop
                }
            case UInt8(ascii: "?"):
                guard let end = Self.find("?>", in: bytes, from: open + 2) else { return .more }
                index = end + 2
            default:
                let end: Int
                switch Self.tagEnd(in: bytes, from: open + 1) {
                case .at(let found): end = found
                case .more: return .more
                // Left to the stream's screen (XMLTagScreen), which refuses it with its place.
                case .tooManyAttributes: return .stop
                }
                index = end + 1
                if bytes[end - 1] != UInt8(ascii: "/") {
                    depth += 1
                } else {
                    cutDue = depth == 1 && index - cutter.start >= cutter.pieceSize
                }
            }
        }
    }

    // MARK: Bytes

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\t")
    }

    private static func matches(_ pattern: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let count = pattern.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return memcmp(bytes.baseAddress! + index, pattern.utf8Start, count) == 0
    }

    /// The index of the first `pattern` at or after `index`.
    private static func find(_ pattern: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        let first = Int32(pattern.utf8Start.pointee)
        var index = index
        while index < bytes.count, let found = memchr(bytes.baseAddress! + index, first, bytes.count - index) {
            index = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if matches(pattern, in: bytes, at: index) { return index }
            index += 1
        }
        return nil
    }

    private enum TagEnd {
        case at(Int)
        /// The window ends inside the tag.
        case more
        /// More attributes than libxml2 checks quickly (``XMLTagScreen/maximumAttributes``): a piece
        /// read by ``AtomPieceReader`` is not screened.
        case tooManyAttributes
    }

    /// The `>` that ends the tag whose name starts at `index`, skipping quoted values.
    private static func tagEnd(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> TagEnd {
        // Eight bytes at a time to the first `>` or quote; most tags have few attributes.
        let closes = SWAR.broadcast(UInt8(ascii: ">"))
        let quotes = SWAR.broadcast(UInt8(ascii: "\""))
        let apostrophes = SWAR.broadcast(UInt8(ascii: "'"))
        let at = SWAR.firstMarked(in: UnsafeRawPointer(bytes.baseAddress!), from: index, to: bytes.count) { word in
            SWAR.bytes(word, equalTo: closes) | SWAR.bytes(word, equalTo: quotes)
                | SWAR.bytes(word, equalTo: apostrophes)
        }
        var quote: UInt8 = 0
        var values = 0
        for at in at..<bytes.count {
            let byte = bytes[at]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: ">") {
                return .at(at)
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
                values += 1
                if values > XMLTagScreen.maximumAttributes { return .tooManyAttributes }
            }
        }
        return .more
    }
}
