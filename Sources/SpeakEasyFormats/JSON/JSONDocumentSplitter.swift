package import SpeakEasyCore

/// Cuts a JSON document's array of entities (a feed's `value`, or a top-level array) into pieces that
/// parse on their own, so that several threads can share one file as they do NDJSON.
///
/// A cut goes between two entities: the piece before ends after an entity's `}`, the piece after
/// starts at the next one's `{`, and the white space and comma between them, which the splitter
/// checks, are in neither. Every piece but the first starts with the document's own opening, from
/// its `{` to the array's `[` (line breaks made spaces), and every piece but the last ends with the
/// array's `]` and the envelope's `}`. So a piece's reader sees the envelope's names, and refuses one
/// given again after the array as the whole document's reader does, and every entity is parsed in the
/// same context as in the whole document. Columns of a piece that starts within a line (one-line
/// documents, as Azure serves them) map back through ``TextOrigin`` and the opening's length.
///
/// Finding the cuts takes a structural scan, as the reader's own: strings (with their escapes) and
/// nesting. Where the input does anything the scan does not expect — an envelope without a `value`
/// array, a name given twice or with an escape, a control byte in an envelope string, something other
/// than an object in the array, no place to cut within `limit` bytes, the array's end — the rest of the
/// input is one last piece, read as a stream: just what a single reader would have seen. Entities are
/// at most 1 MiB, so that is rare in anything but invalid input, whose first error is then in the last
/// piece or before it, and read there as the whole document's reader reads it.
package final class JSONDocumentSplitter: InputSplitter {
    private var cutter: PieceCutter
    /// Where the scan goes on in the cutter's window.
    private var scanned = 0
    /// Open objects and arrays inside the array of entities at `scanned`: 0 between entities.
    private var depth = 0
    private var inString = false
    /// What may come next between two entities.
    private var between = Between.firstEntity
    /// Where the last entity read ended, in the cutter's window.
    private var entityEnd = 0
    /// The document's opening, up to the array's `[`, on one line; the array's (and envelope's) end.
    private var prefix: [UInt8] = []
    private var suffix: [UInt8] = []

    private enum Between {
        /// After the array's `[`: an entity, or `]`.
        case firstEntity
        /// After an entity: `,` or `]`.
        case separator
        /// After a `,`: an entity.
        case nextEntity
    }

    /// Cuts `input` into pieces of about `pieceSize` bytes; `limit` bounds the bytes held in memory
    /// while looking for a place to cut.
    package init(input: ByteInput, pieceSize: Int = 1 << 20, limit: Int = 32 << 20) {
        cutter = PieceCutter(input: input, pieceSize: pieceSize, limit: limit, countsColumnsInBytes: true)
    }

    package func nextPiece() throws(FormatError) -> InputPiece? {
        if cutter.finished { return nil }
        if cutter.pieces == 0, try !readOpening() { return lastPiece() }
        while true {
            switch scan(cutter.window.bytes) {
            case .cut(let end, let next):
                let piece = cutter.cut(
                    through: end,
                    prefix: cutter.pieces == 0 ? [] : prefix,
                    suffix: suffix,
                    origin: origin
                )
                cutter.skip(to: next)
                return piece
            case .stop:
                return lastPiece()
            case .more:
                if cutter.isOverLimit { return lastPiece() }
                let (read, dropped) = try cutter.readMore()
                scanned -= dropped
                entityEnd -= dropped
                if !read { return lastPiece() }
            }
        }
    }

    /// The rest of the input as one piece, read as a stream.
    private func lastPiece() -> InputPiece {
        cutter.cutRest(prefix: cutter.pieces == 0 ? [] : prefix, origin: origin)
    }

    private var origin: TextOrigin {
        cutter.pieces == 0 ? .start : TextOrigin(fileLine: cutter.line, fileColumn: cutter.column)
    }

    // MARK: The opening

    /// Reads the document's opening up to the array of entities; false when the document is not
    /// one this splitter cuts.
    private func readOpening() throws(FormatError) -> Bool {
        while true {
            switch Self.opening(cutter.window.bytes) {
            case .array(let opening, let isFeed):
                // Every piece repeats the opening: a long one (an envelope of large annotations) is not cut.
                guard opening.count <= 1 << 16 else { return false }
                prefix = cutter.window.bytes[opening].map {
                    $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") ? UInt8(ascii: " ") : $0
                }
                suffix = Array((isFeed ? "]}" : "]").utf8)
                scanned = opening.upperBound
                return true
            case .unsupported:
                return false
            case .more:
                guard cutter.window.count < 1 << 20 else { return false }
                let (read, _) = try cutter.readMore()
                guard read else { return false }
            }
        }
    }

    private enum OpeningOutcome {
        /// The document's opening through the array's `[`, and whether the array is a feed's `value`.
        case array(Range<Int>, isFeed: Bool)
        case unsupported
        case more
    }

    /// Reads an optional byte order mark and white space, then either `[`, or a `{` and the envelope's
    /// members up to `"value":[`, skipping their values.
    private static func opening(_ bytes: UnsafeBufferPointer<UInt8>) -> OpeningOutcome {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let start = nonSpace(bytes, from: &index) else { return .more }
        if bytes[start] == UInt8(ascii: "[") { return .array(start..<(start + 1), isFeed: false) }
        guard bytes[start] == UInt8(ascii: "{") else { return .unsupported }
        index += 1
        var names = Set<String>()
        while true {
            guard let at = nonSpace(bytes, from: &index) else { return .more }
            if !names.isEmpty {
                guard bytes[at] == UInt8(ascii: ",") else { return .unsupported }
                index += 1
                guard nonSpace(bytes, from: &index) != nil else { return .more }
            }
            guard bytes[index] == UInt8(ascii: "\"") else { return .unsupported }
            let nameStart = index + 1
            guard let nameEnd = stringEnd(bytes, from: index) else { return .more }
            let nameBytes = UnsafeBufferPointer(rebasing: bytes[nameStart..<(nameEnd - 1)])
            // An escaped name is told apart only once decoded: the reader's work, not the scan's.
            guard !nameBytes.contains(UInt8(ascii: "\\")) else { return .unsupported }
            guard names.insert(String(decoding: nameBytes, as: UTF8.self)).inserted else { return .unsupported }
            index = nameEnd
            guard nonSpace(bytes, from: &index) != nil else { return .more }
            guard bytes[index] == UInt8(ascii: ":") else { return .unsupported }
            index += 1
            guard let value = nonSpace(bytes, from: &index) else { return .more }
            if nameBytes.elementsEqual("value".utf8) {
                guard bytes[value] == UInt8(ascii: "[") else { return .unsupported }
                return .array(start..<(value + 1), isFeed: true)
            }
            switch valueEnd(bytes, from: value) {
            case .end(let end): index = end
            case .unsupported: return .unsupported
            case .more: return .more
            }
        }
    }

    private enum ValueOutcome {
        case end(Int)
        case unsupported
        case more
    }

    /// The index after the envelope value at `index`, by strings and nesting alone, as the reader
    /// skips it. A control byte in a string is unsupported: the reader's skip counts no line in it.
    private static func valueEnd(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> ValueOutcome {
        var depth = 0
        var index = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                guard let end = stringEnd(bytes, from: index) else { return .more }
                if bytes[index..<end].contains(where: { $0 < 0x20 }) { return .unsupported }
                index = end
                if depth == 0 { return .end(index) }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return .end(index) }
                depth -= 1
                index += 1
                if depth == 0 { return .end(index) }
            case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D:
                if depth == 0 { return .end(index) }
                index += 1
            default:
                index += 1
            }
        }
        return .more
    }

    /// The index after the string whose `"` is at `index`; nil when the window ends first.
    private static func stringEnd(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
        var index = index + 1
        while true {
            index = JSONStringBytes.nextQuoteOrBackslash(UnsafeRawBufferPointer(bytes), from: index)
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "\"") { return index + 1 }
            index += 2
        }
    }

    /// Moves `index` past white space; the first other byte's index, or nil at the window's end.
    private static func nonSpace(_ bytes: UnsafeBufferPointer<UInt8>, from index: inout Int) -> Int? {
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index < bytes.count ? index : nil
    }

    // MARK: The scan

    private enum ScanOutcome {
        /// A place to cut: after the entity ending at the first index, `pieceSize` bytes on; the next
        /// entity starts at the second.
        case cut(Int, next: Int)
        /// The array's end, or something not to cut through or after.
        case stop
        /// The window ends before a place to cut.
        case more
    }

    /// Scans on from `scanned`, keeping `depth` and `inString`, to the next place to cut.
    private func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> ScanOutcome {
        var index = scanned
        defer { scanned = index }
        while index < bytes.count {
            if inString {
                // Only quotes stop the scan: prose has an escape every 20 bytes or so (`\n`, `\t`, `\"`),
                // and stopping at each took a sixth of JSON→CSV. A quote after an odd number of
                // backslashes is escaped. Counted back, the backslashes end at the string's opening
                // quote at the latest, which is in the window: it holds the whole entity.
                index = SWAR.firstIndex(of: UInt8(ascii: "\""), in: UnsafeRawBufferPointer(bytes), from: index)
                guard index < bytes.count else { break }
                var backslashes = 0
                while index - backslashes > 0, bytes[index - backslashes - 1] == UInt8(ascii: "\\") {
                    backslashes += 1
                }
                index += 1
                if backslashes & 1 == 0 { inString = false }
                continue
            }
            let byte = bytes[index]
            if depth > 0 {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        entityEnd = index + 1
                        between = .separator
                    }
                default: break
                }
                index += 1
                continue
            }
            if Self.isSpace(byte) {
                index += 1
                continue
            }
            switch (between, byte) {
            case (.separator, UInt8(ascii: ",")):
                between = .nextEntity
                index += 1
            case (.nextEntity, UInt8(ascii: "{")):
                if entityEnd - cutter.start >= cutter.pieceSize { return .cut(entityEnd, next: index) }
                fallthrough
            case (.firstEntity, UInt8(ascii: "{")):
                depth = 1
                index += 1
            default:
                return .stop
            }
        }
        return .more
    }

    // MARK: Bytes

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
