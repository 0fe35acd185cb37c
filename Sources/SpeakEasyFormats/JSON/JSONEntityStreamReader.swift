package import SpeakEasyCore
package import SpeakEasyModel

/// Reads entities one at a time from Azure Table JSON of any size: a feed `{"odata.metadata":…,
/// "value":[…]}` (any metadata level), a bare entity object, a top-level array of entities, or NDJSON
/// (one object a line: an object that goes on past its line is an error).
///
/// Memory stays flat: the reader keeps a window of the input, finds where the next entity object ends
/// with a quick structural scan (strings and nesting only), then parses just that object. An object
/// larger than ``maximumObjectSize`` is an error rather than unbounded growth.
package struct JSONEntityStreamReader: EntityReader {
    /// Azure entities are at most 1 MiB; anything near this is not an entity.
    package static let maximumObjectSize = 16 << 20

    package enum Layout: Sendable {
        /// A JSON document: a feed, a bare entity or an array of entities (told apart by reading).
        case document
        /// NDJSON: one object a line (an object may not go on past its line, nor share it).
        case lines
    }

    private let input: ByteInput
    private let layout: Layout
    private let chunkSize: Int
    private var buffer: [UInt8] = []
    /// How many input bytes were dropped from the buffer's front: `base + i` is buffer[i]'s offset in
    /// the input, which stays valid across refills.
    private var base = 0
    private var position = 0
    private var atEnd = false
    /// Line number at `position`, and the buffer offset where that line starts (may be negative
    /// once earlier bytes were dropped; columns stay right).
    private var line = 1
    private var lineStart = 0
    private var state: State = .start
    /// An input offset that refills must keep in the buffer (the start of an object being read
    /// member by member), or nil.
    private var pinned: Int?
    private var decoder = JSONEntityDecoder(mode: .entity)
    /// The names of the top-level object's members (``envelopeMemberName(keepingFrom:)``).
    private var envelopeNames = Set<String>()
    package private(set) var entityLine = 0
    /// The line of the last NDJSON object read: the next must start on a later one.
    private var lastObjectLine = 0

    private enum State {
        case start
        /// Inside an array of entities (a feed's `value` or a top-level array); `inFeed` when an
        /// envelope object follows the array.
        case inArray(inFeed: Bool, first: Bool)
        case lines
        /// A bare entity was read; only whitespace may follow.
        case finished
    }

    /// Reads `input`, `chunkSize` bytes at a time; by default 1 MiB, and an input already in memory is
    /// taken whole instead (tests give a size to make reads split tokens). `origin` is where the input
    /// starts in its file: a piece of NDJSON cut at a line's start (``JSONLinesSplitter``), or a piece
    /// of a document's array, after `addedBytes` of the document's opening on the same line
    /// (``JSONDocumentSplitter``). `plainEvents` makes ``nextItem()`` hand over events of the
    /// contract's plain shape as ``PlainEvent``s.
    package init(
        input: ByteInput,
        layout: Layout = .document,
        chunkSize: Int? = nil,
        origin: TextOrigin = .start,
        addedBytes: Int = 0,
        plainEvents: Bool = false
    ) {
        precondition(origin.firstLine == 1, "a JSON piece adds no line of its own")
        self.input = input
        self.layout = layout
        self.chunkSize = chunkSize ?? 1 << 20
        takesMemoryWhole = chunkSize == nil
        line = origin.fileLine
        // The added opening stands before the piece's first byte on its line, which is at the file's column.
        lineStart = addedBytes + 1 - origin.fileColumn
        startsFile = origin == .start
        self.plainEvents = plainEvents
    }

    /// Whether the input is a file's start, where a byte order mark may be.
    private let startsFile: Bool
    private let takesMemoryWhole: Bool
    /// Set once the input was taken whole (``ByteInput/takeBytesInMemory()``).
    private var takenWhole = false
    private let plainEvents: Bool

    package mutating func next() throws(FormatError) -> Entity? {
        switch try nextItem() {
        case .entity(let entity): return entity
        case .plainEvent: preconditionFailure("a reader of plain events is read with nextItem()")
        case nil: return nil
        }
    }

    package mutating func nextItem() throws(FormatError) -> EntityItem? {
        switch state {
        case .start:
            if startsFile { skipBOM() }
            if layout == .lines {
                state = .lines
                return try nextItem()
            }
            guard let first = try peek() else { throw failure("the input is empty, expected a JSON object or array") }
            if first == UInt8(ascii: "[") {
                position += 1
                state = .inArray(inFeed: false, first: true)
                return try nextItem()
            }
            guard first == UInt8(ascii: "{") else { throw failure("expected a JSON object or array") }
            return try openDocumentObject()
        case .inArray(let inFeed, let first):
            guard let byte = try peek() else { throw failure("unexpected end of input inside the array of entities") }
            if byte == UInt8(ascii: "]") {
                position += 1
                if inFeed { try closeEnvelope() }
                try expectEnd()
                state = .finished
                return nil
            }
            if !first {
                guard byte == UInt8(ascii: ",") else { throw failure("expected ',' or ']' after an entity") }
                position += 1
            }
            state = .inArray(inFeed: inFeed, first: false)
            guard let start = try peek() else { throw failure("unexpected end of input, expected an entity object") }
            guard start == UInt8(ascii: "{") else { throw failure("expected an entity object") }
            return try readObject()
        case .lines:
            guard let byte = try peek() else { return nil }
            guard byte == UInt8(ascii: "{") else { throw failure("expected an entity object at the start of a line") }
            guard line > lastObjectLine else {
                throw failure("a second object on one line (NDJSON has one object a line)")
            }
            lastObjectLine = line
            return try readObject()
        case .finished:
            return nil
        }
    }

    // MARK: - Document structure

    /// At the top-level `{`: either a feed envelope (members until `"value": [`) or one bare entity.
    private mutating func openDocumentObject() throws(FormatError) -> EntityItem? {
        let objectStart = base + position
        let objectLine = line
        let objectColumn = column
        pinned = objectStart
        defer { pinned = nil }
        position += 1
        var firstMember = true
        while true {
            guard let byte = try peek() else { throw failure("unexpected end of input inside the top-level object") }
            if byte == UInt8(ascii: "}") { break }
            if !firstMember {
                guard byte == UInt8(ascii: ",") else { throw failure("expected ',' or '}'") }
                position += 1
                _ = try peek()
            }
            firstMember = false
            let isValueKey = try envelopeMemberName(keepingFrom: objectStart) == "value"
            guard try peek() == UInt8(ascii: ":") else { throw failure("expected ':'") }
            position += 1
            if isValueKey, try peek() == UInt8(ascii: "[") {
                // A feed: what came before were envelope annotations (odata.metadata); drop them.
                position += 1
                state = .inArray(inFeed: true, first: true)
                return try nextItem()
            }
            guard try peek() != nil else { throw failure("unexpected end of input, expected a value") }
            try skipValue(keepingFrom: objectStart)
            if base + position - objectStart > Self.maximumObjectSize {
                throw FormatError(
                    source: input.name,
                    line: objectLine,
                    column: objectColumn,
                    reason:
                        "a JSON object larger than \(Self.maximumObjectSize >> 20) MiB (Azure entities are at most 1 MiB)"
                )
            }
        }
        // No `value` array: the object is one entity, all in the buffer now. Parse it from its start.
        position = objectStart - base
        (line, lineStart) = (objectLine, position - objectColumn + 1)
        state = .finished
        let item = try readObject()
        try expectEnd()
        return item
    }

    /// After a feed's array: the envelope's other members (skipped), then `}`.
    private mutating func closeEnvelope() throws(FormatError) {
        while true {
            guard let byte = try peek() else { throw failure("unexpected end of input, expected '}' closing the feed") }
            if byte == UInt8(ascii: "}") {
                position += 1
                return
            }
            guard byte == UInt8(ascii: ",") else { throw failure("expected ',' or '}' after the feed's value array") }
            position += 1
            _ = try peek()
            _ = try envelopeMemberName(keepingFrom: base + position)
            guard try peek() == UInt8(ascii: ":") else { throw failure("expected ':'") }
            position += 1
            guard try peek() != nil else { throw failure("unexpected end of input, expected a value") }
            try skipValue(keepingFrom: base + position)
        }
    }

    /// Reads the name of a member of the top-level object at `position`, escapes decoded, and
    /// refuses a name given twice: a second `value` array (or a `value` that is no array) would
    /// otherwise be skipped unseen. Names are few in an envelope; a bare entity's are checked once
    /// more as it is parsed.
    private mutating func envelopeMemberName(keepingFrom keep: Int) throws(FormatError) -> String {
        guard try peek() == UInt8(ascii: "\"") else { throw failure("expected a property name in quotes") }
        let keyStart = position
        let keyLine = line
        let keyColumn = column
        try skipValue(keepingFrom: keep)
        let name = buffer.withUnsafeBytes { raw in
            var scanner = JSONObjectScanner(
                UnsafeRawBufferPointer(rebasing: raw[keyStart..<position]),
                line: keyLine,
                column: keyColumn
            )
            return Result { () throws(JSONSyntaxError) in
                switch try scanner.string() {
                case .plain(let range, ascii: _): String(decoding: scanner.bytes[range], as: UTF8.self)
                case .escaped(let name): name
                }
            }
        }
        switch name {
        case .success(let name):
            guard envelopeNames.insert(name).inserted else {
                throw FormatError(
                    source: input.name,
                    line: keyLine,
                    column: keyColumn,
                    reason: "\(name) is given twice in the top-level object"
                )
            }
            return name
        case .failure(let error):
            throw FormatError(source: input.name, line: error.line, column: error.column, reason: error.reason)
        }
    }

    private mutating func expectEnd() throws(FormatError) {
        guard try peek() == nil else { throw failure("unexpected content after the end of the JSON document") }
    }

    /// Reads the entity object at `position`, parsing it in place in the buffer. When the buffer ends
    /// inside the object (rare: chunks are 1 MiB, entities about 1 KiB), a structural scan reads on
    /// to the object's end, keeping it in the buffer, and the object is parsed once more.
    private mutating func readObject() throws(FormatError) -> EntityItem {
        let start = base + position
        let objectLine = line
        let objectColumn = column
        entityLine = objectLine
        var scannedToEnd = false
        while true {
            let from = start - base
            let (result, scanner) = buffer.withUnsafeBytes { raw in
                var scanner = JSONObjectScanner(raw, position: from, line: objectLine, column: objectColumn)
                return (
                    Result { () throws(JSONSyntaxError) in try decoder.item(&scanner, plainEvents: plainEvents) },
                    scanner
                )
            }
            // NDJSON is one object a line. An object that goes on past its line gets one error,
            // whatever comes after: so a piece cut after that line reads as the whole file does.
            if layout == .lines, scanner.line > objectLine { throw notOnOneLine(objectLine, objectColumn) }
            switch result {
            case .success(let item):
                guard scanner.position - from <= Self.maximumObjectSize else {
                    throw tooLarge(objectLine, objectColumn)
                }
                position = scanner.position
                line = scanner.line
                lineStart = scanner.lineStart
                return item
            case .failure(let error):
                guard scanner.ranOut, !scannedToEnd else {
                    throw FormatError(source: input.name, line: error.line, column: error.column, reason: error.reason)
                }
                do {
                    try skipValue(keepingFrom: start)  // throws at the end of the input, naming what is unterminated
                } catch {
                    if layout == .lines, line > objectLine { throw notOnOneLine(objectLine, objectColumn) }
                    throw error
                }
                scannedToEnd = true
            }
        }
    }

    private func notOnOneLine(_ line: Int, _ column: Int) -> FormatError {
        FormatError(
            source: input.name,
            line: line,
            column: column,
            reason: "the entity object does not end on its line (NDJSON has one object a line)"
        )
    }

    private func tooLarge(_ line: Int, _ column: Int) -> FormatError {
        FormatError(
            source: input.name,
            line: line,
            column: column,
            reason:
                "an entity object larger than \(Self.maximumObjectSize >> 20) MiB (Azure entities are at most 1 MiB)"
        )
    }

    // MARK: - Scanning

    private var column: Int { position - lineStart + 1 }

    private func failure(_ reason: String) -> FormatError {
        FormatError(source: input.name, line: line, column: column, reason: reason)
    }

    private mutating func skipBOM() {
        _ = try? fill(minimum: 3, keepingFrom: base + position)
        if buffer.count - position >= 3, buffer[position] == 0xEF, buffer[position + 1] == 0xBB,
            buffer[position + 2] == 0xBF
        {
            position += 3
        }
    }

    /// The next non-whitespace byte (not consumed), reading more input as needed; nil at the end.
    private mutating func peek() throws(FormatError) -> UInt8? {
        while true {
            var (line, lineStart) = (self.line, self.lineStart)
            let from = position
            position = buffer.withUnsafeBytes {
                JSONWhitespace.skip($0, from: from, line: &line, lineStart: &lineStart)
            }
            (self.line, self.lineStart) = (line, lineStart)
            if position < buffer.count { return buffer[position] }
            guard try fill(minimum: 1, keepingFrom: base + position) else { return nil }
        }
    }

    /// Moves `position` past the JSON value starting there (a string, number, literal, object or
    /// array), checking only nesting and string boundaries; the value's own parser checks the rest.
    private mutating func skipValue(keepingFrom keep: Int) throws(FormatError) {
        var depth = 0
        var inString = false
        let startLine = line
        let startColumn = column
        var stringLine = line
        var stringColumn = column
        while true {
            if position >= buffer.count {
                guard try fill(minimum: 1, keepingFrom: keep) else {
                    if !inString, depth == 0 { return }  // a scalar at the very end
                    throw FormatError(
                        source: input.name,
                        line: inString ? stringLine : startLine,
                        column: inString ? stringColumn : startColumn,
                        reason: inString
                            ? "unterminated string: the input ends inside it"
                            : "unterminated object or array: the input ends inside it"
                    )
                }
                if base + buffer.count - keep > Self.maximumObjectSize + chunkSize {
                    throw FormatError(
                        source: input.name,
                        line: startLine,
                        column: startColumn,
                        reason:
                            "a JSON value larger than \(Self.maximumObjectSize >> 20) MiB (Azure entities are at most 1 MiB)"
                    )
                }
            }
            if inString {
                // Newlines inside strings are invalid JSON anyway (the object's parser reports them),
                // so lines are not counted here.
                position = buffer.withUnsafeBytes { JSONStringBytes.nextQuoteOrBackslash($0, from: position) }
                guard position < buffer.count else { continue }
                if buffer[position] == UInt8(ascii: "\\") {
                    // Make sure the escaped byte is in the buffer before stepping over it.
                    if position + 1 >= buffer.count, try !fill(minimum: 2, keepingFrom: keep) {
                        position += 1  // the input ends after the backslash: reported above
                        continue
                    }
                    position += 2
                } else {
                    position += 1
                    inString = false
                    if depth == 0 { return }
                }
                continue
            }
            let byte = buffer[position]
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                (stringLine, stringColumn) = (line, column)
                position += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return }  // the end of a scalar inside a container
                depth -= 1
                position += 1
                if depth == 0 { return }
            case UInt8(ascii: ","), 0x20, 0x09, 0x0D, UInt8(ascii: ":"):
                if depth == 0 { return }
                position += 1
            case 0x0A:
                if depth == 0 { return }
                position += 1
                line += 1
                lineStart = position
            default:
                position += 1
            }
            if base + position - keep > Self.maximumObjectSize {
                throw FormatError(
                    source: input.name,
                    line: startLine,
                    column: startColumn,
                    reason:
                        "a JSON value larger than \(Self.maximumObjectSize >> 20) MiB (Azure entities are at most 1 MiB)"
                )
            }
        }
    }

    /// Reads more input so that at least `minimum` bytes follow `position`, first dropping the bytes
    /// before `keep` (moving `position` and `lineStart` with them). False at the end of the input.
    @discardableResult
    private mutating func fill(minimum: Int, keepingFrom keep: Int) throws(FormatError) -> Bool {
        // Input taken whole is all there is: dropping its front would only copy the rest (the array
        // is shared with its owner, so the first change copies all of it).
        let drop = takenWhole ? 0 : min(keep, pinned ?? keep) - base
        if drop > 0, buffer.count - position < minimum {
            buffer.removeFirst(drop)
            base += drop
            position -= drop
            lineStart -= drop
        }
        while buffer.count - position < minimum {
            guard !atEnd else { return false }
            if buffer.isEmpty, takesMemoryWhole, let whole = input.takeBytesInMemory() {
                // A piece cut from a file (or bytes in a test) is already in memory: taken, not copied.
                buffer = whole
                atEnd = true
                takenWhole = true
                continue
            }
            do {
                if try input.read(appendingTo: &buffer, maximum: chunkSize) == 0 { atEnd = true }
            } catch {
                throw FormatError(error)
            }
        }
        return true
    }
}
