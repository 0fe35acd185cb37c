package import SpeakEasyCore
import SpeakEasyModel

/// Splits RFC 4180 CSV into records and fields, streaming from a ``ByteInput`` through one buffer.
///
/// Fields are handed out as byte ranges of the buffer (``Field``), not as strings, so scanning
/// allocates nothing per field; a reader turns only the cells it needs into values. The ranges stay
/// valid until the next call of ``nextRecord()``, which may move the buffer's content.
///
/// The dialect: fields separated by a single-byte ASCII `delimiter`; a field starting with `"` is
/// quoted and may hold the delimiter, CR, LF and doubled quotes (`""` is one `"`); records end with
/// CRLF, LF or a lone CR, or at the end of the input; a UTF-8 BOM at the start is skipped; empty lines
/// are skipped. Lines count LF, CRLF and lone CR outside quotes, LF inside quoted fields; columns count
/// bytes from 1.
///
/// Memory stays bounded: the buffer holds one chunk plus the record being scanned, and a record
/// longer than ``maximumRecordSize`` or with more than ``maximumFields`` fields is an error rather
/// than a reason to grow without limit.
package final class CSVRecordScanner {
    /// The longest field or record accepted. Azure entities hold at most 1 MiB, so 16 MiB leaves
    /// room for quoting and base64 while still stopping a runaway quote or a hostile input early.
    package static let maximumRecordSize = 16 << 20
    /// The most fields a record may have: a header of millions of short names would otherwise take
    /// gigabytes (a field's range, and each name as a String). Azure entities have at most 255
    /// properties, twice that many columns and the system ones in typed CSV.
    package static let maximumFields = 1024
    /// How much is read from the input at a time.
    package static let defaultChunkSize = 1 << 20

    /// One field of the current record: where its content lies in the buffer and where it started
    /// in the input.
    package struct Field {
        /// Buffer offsets of the content, without the surrounding quotes.
        package var start: Int
        package var end: Int
        package var isQuoted: Bool
        /// The content still holds `""` pairs, each meaning one `"`.
        package var hasDoubledQuotes: Bool
        /// Known to be ASCII, so valid UTF-8 without a check (false means: not checked yet).
        package var isASCII: Bool
        /// Where the field starts (its opening quote, if quoted), 1-based.
        package var line: Int
        package var column: Int

        package var isEmpty: Bool { start == end }
        package var count: Int { end - start }
    }

    // The state below is touched for every record and field. A class's stored properties cost a
    // runtime exclusivity check on each access (several percent of the reader's time); a scanner is
    // owned by one reader and never shared, so the checks are switched off.

    /// The input's name, for errors.
    package let source: String
    /// The fields of the record returned by the last ``nextRecord()``.
    @exclusivity(unchecked) package private(set) var fields: [Field] = []
    /// Where the current record starts, 1-based.
    @exclusivity(unchecked) package private(set) var recordLine = 1
    @exclusivity(unchecked) package private(set) var recordColumn = 1
    /// Where the current record's content ends (just before its line end), 1-based: where a missing
    /// field would have been.
    @exclusivity(unchecked) package private(set) var endLine = 1
    @exclusivity(unchecked) package private(set) var endColumn = 1

    let delimiter: UInt8
    private let input: ByteInput
    private let chunkSize: Int
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// Valid bytes in the buffer.
    @exclusivity(unchecked) private var count = 0
    /// Buffer offset where scanning resumes (the next record).
    @exclusivity(unchecked) private var position = 0
    /// Input offset of `buffer[0]`, so line starts survive compaction.
    @exclusivity(unchecked) private var bufferOffset = 0
    @exclusivity(unchecked) private var line = 1
    /// Input offset of the first byte of the current line.
    @exclusivity(unchecked) private var lineStart = 0
    @exclusivity(unchecked) private var inputEnded = false
    @exclusivity(unchecked) private var startChecked = false
    /// Buffer offsets of the current record's content (for copying it verbatim).
    @exclusivity(unchecked) private var recordStart = 0
    @exclusivity(unchecked) private var recordEnd = 0
    /// Where the field being scanned starts, for the "field too long" error.
    @exclusivity(unchecked) private var fieldStart = 0
    @exclusivity(unchecked) private var fieldLine = 1
    @exclusivity(unchecked) private var fieldColumn = 1
    /// Reused when a field's doubled quotes must be removed.
    @exclusivity(unchecked) private var scratch: [UInt8] = []

    /// `chunkSize` is how much each read asks for; tests make it tiny to split fields across reads.
    /// `firstLine` is the number of the input's first line (a piece of a file, ``CSVSplitter``).
    package init(
        _ input: ByteInput,
        delimiter: UInt8 = UInt8(ascii: ","),
        chunkSize: Int = CSVRecordScanner.defaultChunkSize,
        firstLine: Int = 1
    ) {
        self.input = input
        self.source = input.name
        self.delimiter = delimiter
        self.chunkSize = max(1, chunkSize)
        (line, recordLine, endLine, fieldLine) = (firstLine, firstLine, firstLine, firstLine)
        capacity = max(self.chunkSize, 64)
        buffer = .allocate(capacity: capacity)
    }

    deinit { buffer.deallocate() }

    /// Scans the next record into ``fields``; false at the end of the input.
    package func nextRecord() throws(FormatError) -> Bool {
        if !startChecked { try skipByteOrderMark() }
        while true {
            switch try scanRecord() {
            case .record: return true
            case .endOfInput: return false
            case .needMore:
                // Rescan the record from its start once more bytes are in: simpler than resuming
                // mid-field. It happens about once per chunk, and `refill` reads more for a long
                // record, so the total work stays linear.
                line = recordLine
                lineStart = bufferOffset + recordStart - (recordColumn - 1)
                try checkLength()
                try refill()
            }
        }
    }

    /// The raw bytes of the current record as they appear in the input, quotes included, without
    /// its line end.
    package func withRecordBytes<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws(FormatError) -> Result
    ) throws(FormatError) -> Result {
        try body(UnsafeBufferPointer(start: buffer + recordStart, count: recordEnd - recordStart))
    }

    /// The raw bytes of the current record in two parts: before field `index` (without the delimiter
    /// after them) and from that field on, quotes included, without the line end.
    package func withRecordBytes<Result>(
        splitBefore index: Int,
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws(FormatError) -> Result
    ) throws(FormatError) -> Result {
        let field = fields[index]
        let split = field.isQuoted ? field.start - 1 : field.start
        let headEnd = index == 0 ? split : split - 1
        return try body(
            UnsafeBufferPointer(start: buffer + recordStart, count: headEnd - recordStart),
            UnsafeBufferPointer(start: buffer + split, count: recordEnd - split)
        )
    }

    /// The content of `field` with doubled quotes made single; valid until the next call. Throws only
    /// what `body` throws.
    package func withBytes<Result, Failure: Error>(
        of field: Field,
        _ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        guard field.hasDoubledQuotes else {
            return try body(UnsafeBufferPointer(start: buffer + field.start, count: field.count))
        }
        if scratch.count < field.count + 8 {
            scratch = [UInt8](repeating: 0, count: max(field.count + 8, scratch.count * 2))
        }
        let source = UnsafeRawPointer(buffer)
        return try scratch.withUnsafeMutableBufferPointer { space throws(Failure) in
            // The runs between quotes are copied a word at a time, each searched as it is copied: the
            // scanner only accepts a quote inside a quoted field when another follows it, and one of
            // the two is kept. (memchr and an append for each run, a quote every 30 bytes of prose,
            // spent 11% of CSV→JSON on long text.)
            let target = UnsafeMutableRawPointer(space.baseAddress!)
            let quotes = SWAR.broadcast(Self.quote)
            var index = field.start
            var written = 0
            while true {
                SWAR.copyUnmarked(from: source, index: &index, end: field.end, to: target, written: &written) {
                    word in SWAR.bytes(word, equalTo: quotes)
                }
                guard index < field.end else { break }
                target.storeBytes(of: Self.quote, toByteOffset: written, as: UInt8.self)
                written += 1
                index += 2
            }
            return try body(UnsafeBufferPointer(start: space.baseAddress, count: written))
        }
    }

    /// The field's text; invalid UTF-8 is an error naming the line and column of the bad byte.
    package func string(_ field: Field) throws(FormatError) -> String {
        if field.isEmpty { return "" }
        return try withBytes(of: field) { bytes throws(FormatError) in try string(bytes, of: field) }
    }

    /// The text of `bytes`, which ``withBytes(of:_:)`` gave for `field`.
    package func string(_ bytes: UnsafeBufferPointer<UInt8>, of field: Field) throws(FormatError) -> String {
        let raw = UnsafeRawBufferPointer(bytes)
        if field.isASCII { return UTF8Text.string(known: raw) }
        guard let string = UTF8Text.string(validating: raw) else { throw invalidUTF8(in: field) }
        return string
    }

    /// Whether the field's bytes are exactly `text` (for header names and type cells).
    package func field(_ field: Field, equals text: [UInt8]) -> Bool {
        guard field.count == text.count, !field.hasDoubledQuotes else { return false }
        return UnsafeBufferPointer(start: buffer + field.start, count: field.count).elementsEqual(text)
    }

    /// An error located at `line`/`column`.
    package func error(
        _ reason: String,
        line: Int,
        column: Int,
        keys: (partitionKey: String, rowKey: String)? = nil
    ) -> FormatError {
        FormatError(source: source, line: line, column: column, keys: keys, reason: reason)
    }

    // MARK: - Scanning

    private enum Outcome { case record, needMore, endOfInput }

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    /// Scans one record from `position`. Returns `.needMore` when the buffer ends before the record
    /// does and more input may follow; the caller then refills and calls again from the same place.
    ///
    /// The hot state lives in locals, written back on the way out: stored properties of a class
    /// cost an exclusivity check on every access, which shows in a loop run for every field.
    private func scanRecord() throws(FormatError) -> Outcome {
        let bytes = UnsafePointer(buffer)
        let end = count
        let bufferOffset = bufferOffset
        let delimiter = delimiter
        let inputEnded = inputEnded
        var index = position
        var line = line
        var lineStart = lineStart
        var fields = self.fields
        self.fields = []  // so that appending to the local copy does not copy the storage
        fields.removeAll(keepingCapacity: true)
        var fieldStart = index
        var fieldLine = line
        var fieldColumn = 1
        defer {
            self.line = line
            self.lineStart = lineStart
            self.fields = fields
            self.fieldStart = fieldStart
            self.fieldLine = fieldLine
            self.fieldColumn = fieldColumn
        }
        func column(_ index: Int) -> Int { bufferOffset + index - lineStart + 1 }
        var seen: UInt64 = 0
        func append(_ start: Int, _ end: Int, quoted: Bool, doubled: Bool) throws(FormatError) {
            guard end - start <= Self.maximumRecordSize else {
                throw tooLong("a field", line: fieldLine, column: fieldColumn)
            }
            guard fields.count < Self.maximumFields else {
                throw error(
                    "a record with more than \(Self.maximumFields) fields (an Azure entity has at most 255 properties, 507 columns in typed CSV)",
                    line: fieldLine,
                    column: fieldColumn
                )
            }
            fields.append(
                Field(
                    start: start,
                    end: end,
                    isQuoted: quoted,
                    hasDoubledQuotes: doubled,
                    isASCII: CSVByteSearch.isASCII(seen),
                    line: fieldLine,
                    column: fieldColumn
                )
            )
        }

        // Empty lines hold no record.
        while index < end, bytes[index] == Self.lineFeed || bytes[index] == Self.carriageReturn {
            if bytes[index] == Self.carriageReturn {
                if index + 1 == end, !inputEnded { break }
                if index + 1 < end, bytes[index + 1] == Self.lineFeed { index += 1 }
            }
            index += 1
            line += 1
            lineStart = bufferOffset + index
        }
        position = index
        recordStart = index
        recordLine = line
        recordColumn = column(index)
        fieldStart = index
        if index == end { return inputEnded ? .endOfInput : .needMore }
        if bytes[index] == Self.carriageReturn { return .needMore }  // a CR at the buffer's end

        while true {
            fieldStart = index
            fieldLine = line
            fieldColumn = column(index)
            seen = 0
            if index < end, bytes[index] == Self.quote {
                index += 1
                var doubled = false
                while true {
                    var lineFeeds = 0
                    var lastLineFeed = 0
                    index = CSVByteSearch.firstQuote(
                        bytes,
                        from: index,
                        to: end,
                        seen: &seen,
                        lineFeeds: &lineFeeds,
                        lastLineFeed: &lastLineFeed
                    )
                    if lineFeeds > 0 {
                        line += lineFeeds
                        lineStart = bufferOffset + lastLineFeed + 1
                    }
                    if index == end {
                        guard inputEnded else { return .needMore }
                        throw error(
                            "unterminated quoted field: the quote opened at line \(fieldLine), column \(fieldColumn) is never closed",
                            line: fieldLine,
                            column: fieldColumn
                        )
                    }
                    if index + 1 == end, !inputEnded { return .needMore }
                    if index + 1 < end, bytes[index + 1] == Self.quote {
                        doubled = true
                        index += 2
                        continue
                    }
                    break
                }
                try append(fieldStart + 1, index, quoted: true, doubled: doubled)
                index += 1  // the closing quote
                if index == end, !inputEnded { return .needMore }
                if index < end {
                    let next = bytes[index]
                    if next == delimiter {
                        index += 1
                        continue
                    }
                    guard next == Self.lineFeed || next == Self.carriageReturn else {
                        throw error(
                            "unexpected character after the closing quote of a field (a quote inside a quoted field must be doubled)",
                            line: line,
                            column: column(index)
                        )
                    }
                }
            } else {
                index = CSVByteSearch.firstSpecial(bytes, from: index, to: end, delimiter: delimiter, seen: &seen)
                if index == end, !inputEnded { return .needMore }
                if index < end, bytes[index] == Self.quote {
                    throw error(
                        "a quote inside an unquoted field (quote the whole field and double the quote)",
                        line: line,
                        column: column(index)
                    )
                }
                try append(fieldStart, index, quoted: false, doubled: false)
                if index < end, bytes[index] == delimiter {
                    index += 1
                    continue
                }
            }
            break
        }

        // `index` is at the line end or the end of the input.
        recordEnd = index
        endLine = line
        endColumn = column(index)
        if index < end {
            if bytes[index] == Self.carriageReturn {
                if index + 1 == end, !inputEnded { return .needMore }
                if index + 1 < end, bytes[index + 1] == Self.lineFeed { index += 1 }
            }
            index += 1
            line += 1
            lineStart = bufferOffset + index
        }
        guard recordEnd - recordStart <= Self.maximumRecordSize else {
            throw tooLong("a record", line: recordLine, column: recordColumn)
        }
        position = index
        return .record
    }

    // MARK: - Input

    /// Moves the unfinished record to the front and reads at least a chunk — or, for a record
    /// already longer than a chunk, as much again as it holds, so that rescanning a long record stays
    /// linear in its length even when reads return little (a pipe gives 64 KiB at a time). Never more
    /// than the limit needs, so the buffer stays under the limit plus a chunk.
    private func refill() throws(FormatError) {
        if position > 0 {
            count -= position
            if count > 0 { buffer.update(from: buffer + position, count: count) }
            bufferOffset += position
            recordStart -= position
            fieldStart -= position
            position = 0
        }
        let wanted = max(chunkSize, min(count, Self.maximumRecordSize + 2 - count))
        if capacity - count < wanted {
            let grown = max(capacity * 2, count + wanted)
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            larger.update(from: buffer, count: count)
            buffer.deallocate()
            buffer = larger
            capacity = grown
        }
        var gathered = 0
        while gathered < wanted {
            let read: Int
            do {
                read = try input.read(
                    into: UnsafeMutableRawBufferPointer(start: buffer + count, count: min(chunkSize, capacity - count))
                )
            } catch {
                throw FormatError(error, line: line)
            }
            if read == 0 {
                inputEnded = true
                return
            }
            count += read
            gathered += read
        }
    }

    /// Skips a UTF-8 byte order mark, which spreadsheet programs put in front of CSV files.
    private func skipByteOrderMark() throws(FormatError) {
        while count < 3, !inputEnded { try refill() }
        startChecked = true
        if count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
            position = 3
            lineStart = 3
        }
    }

    /// Stops a record that outgrows the limit before more of it is read.
    private func checkLength() throws(FormatError) {
        if count - fieldStart > Self.maximumRecordSize {
            throw tooLong("a field", line: fieldLine, column: fieldColumn)
        }
        if count - recordStart > Self.maximumRecordSize {
            throw tooLong("a record", line: recordLine, column: recordColumn)
        }
    }

    private func tooLong(_ what: String, line: Int, column: Int) -> FormatError {
        error(
            "\(what) longer than \(Self.maximumRecordSize >> 20) MiB starts here (the limit; Azure entities hold at most 1 MiB)",
            line: line,
            column: column
        )
    }
}

extension CSVRecordScanner {
    /// Locates the first invalid UTF-8 sequence of `field` by line and column. Quotes are ASCII, so
    /// the raw bytes are valid exactly when the unquoted content is.
    fileprivate func invalidUTF8(in field: Field) -> FormatError {
        let raw = UnsafeBufferPointer(start: UnsafePointer(buffer) + field.start, count: field.count)
        let offset = CSVByteSearch.firstInvalidUTF8(raw) ?? 0
        var line = field.line
        var column = field.column + (field.isQuoted ? 1 : 0)
        for byte in raw[..<offset] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        let hint = EncodingHint.invalidUTF8(raw, at: offset, atInputStart: field.line == 1 && field.column == 1)
        var failure = error(
            "invalid UTF-8 (byte 0x\(String(raw[offset], radix: 16, uppercase: true)))" + hint.reason,
            line: line,
            column: column
        )
        failure.toolAdvice = hint.advice
        return failure
    }
}
