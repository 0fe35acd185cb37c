package import SpeakEasyCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts CSV into pieces of whole records that parse on their own, so that several threads can share
/// one file. Every piece after the first starts with a copy of the header record.
///
/// A cut goes after a line feed with an even number of quotes before it. In CSV the scanner accepts,
/// quotes come only as a quoted field's opening and closing quote and as doubled quotes inside it,
/// so an even count means outside every quoted field: the line feed ends a record. Where the input
/// is malformed, its first error lies in a piece that starts where a single reader would be (all
/// before it is well-formed), and comes from the same record at the same line and column.
///
/// Only the plain layout is cut: in typed CSV an empty type cell takes the type of an earlier row,
/// which a piece cannot see. A lone CR (which ends a record and counts as a line, but not for the
/// pieces' line numbers), a header that does not end in a line feed or is over 64 KiB, or `limit` bytes without a cut
/// make the rest of the file one last piece, read as a stream: exactly the single reader's path.
package final class CSVSplitter: InputSplitter {
    private var cutter: PieceCutter
    private let delimiter: UInt8
    /// The header record with its line end, once found, and its lines.
    private var header: [UInt8]?
    private var headerLines = 0
    /// No more cuts: the rest of the file is the last piece.
    private var stopped = false
    /// How far the header was looked for, and whether an odd number of quotes came before.
    private var headerSearched = 0
    private var headerOddQuotes = false
    /// How far quotes are counted from the next piece's start, and whether their count is odd.
    private var counted = 0
    private var oddQuotes = false

    /// Every piece gets a copy of the header, which its reader parses again: a header beyond this
    /// size (a few hundred columns are a few KiB) is not copied, and the file is read as one stream.
    static let maximumCopiedHeader = 64 << 10

    private static let quote = UInt8(ascii: "\""), lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")

    package init(
        input: ByteInput,
        delimiter: UInt8 = UInt8(ascii: ","),
        pieceSize: Int = 1 << 20,
        limit: Int = 32 << 20
    ) {
        cutter = PieceCutter(input: input, pieceSize: pieceSize, limit: limit)
        self.delimiter = delimiter
    }

    package func nextPiece() throws(FormatError) -> InputPiece? {
        if cutter.finished { return nil }
        while !stopped {
            if header == nil { findHeader() }
            if header != nil, !stopped, cutter.pending >= cutter.pieceSize, let cut = nextCut() {
                let (prefix, origin) = nextPieceStart
                counted = 0
                oddQuotes = false
                return cutter.cut(through: cut, prefix: prefix, origin: origin)
            }
            if cutter.isOverLimit { break }
            let (read, dropped) = try cutter.readMore()
            counted = max(0, counted - dropped)
            if !read { break }
        }
        let (prefix, origin) = nextPieceStart
        return cutter.cutRest(prefix: prefix, origin: origin)
    }

    /// What goes before the next piece's bytes, and where they are in the file: the first piece is
    /// the file's start; the others are read after a copy of the header.
    private var nextPieceStart: (prefix: [UInt8], origin: TextOrigin) {
        guard cutter.pieces > 0, let header else { return ([], .start) }
        return (header, TextOrigin(firstLine: headerLines + 1, fileLine: cutter.line))
    }

    /// Finds the header record at the file's start once it is all in the window, or stops the cutting
    /// (typed CSV, a header the reader refuses or this splitter does not copy).
    private func findHeader() {
        let bytes = cutter.window.bytes
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        var index = max(start, headerSearched)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == Self.quote { headerOddQuotes.toggle() }
            if !headerOddQuotes, byte == Self.lineFeed || byte == Self.carriageReturn { break }
            index += 1
        }
        headerSearched = index
        // A CR at the window's end waits for the byte after it.
        guard index < bytes.count, bytes[index] == Self.lineFeed || index + 1 < bytes.count else { return }
        // Only a header ending in a line feed (LF or CRLF) is copied; a lone CR ends the cutting.
        let end = bytes[index] == Self.lineFeed ? index : bytes[index + 1] == Self.lineFeed ? index + 1 : nil
        guard let end, end - start < Self.maximumCopiedHeader, isPlain(Array(bytes[start...end])) else {
            stopped = true
            return
        }
        header = Array(bytes[start...end])
        headerLines = SWAR.count(of: Self.lineFeed, in: UnsafeBufferPointer(rebasing: bytes[start...end]))
    }

    /// Whether the header is one of the plain layout, as the reader reads it; a header it refuses
    /// is not cut after either (the first piece reports it).
    private func isPlain(_ header: [UInt8]) -> Bool {
        let scanner = CSVRecordScanner(ByteInput(name: "header", bytes: header), delimiter: delimiter)
        guard (try? scanner.nextRecord()) == true, let parsed = try? CSVHeader(scanner) else { return false }
        return parsed.layout == .plain
    }

    /// The first place to cut (just after a line feed outside quotes), `pieceSize` bytes on or more;
    /// nil when none is in the window yet, or when the piece would hold a lone CR (then it stops).
    private func nextCut() -> Int? {
        let bytes = cutter.window.bytes
        let from = cutter.start + cutter.pieceSize - 1
        if counted < cutter.start { (counted, oddQuotes) = (cutter.start, false) }
        while true {
            // The window's last byte waits for the next read: a cut at the end of the input would
            // leave an empty last piece.
            let target = counted < from ? from : counted
            guard target < bytes.count - 1,
                let found = memchr(bytes.baseAddress! + target, Int32(Self.lineFeed), bytes.count - 1 - target)
            else {
                countQuotes(to: max(counted, bytes.count - 1))
                return nil
            }
            let lineFeed = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            countQuotes(to: lineFeed + 1)
            if !oddQuotes {
                if hasLoneCarriageReturn(cutter.start..<(lineFeed + 1)) {
                    stopped = true
                    return nil
                }
                return lineFeed + 1
            }
        }
    }

    /// Counts the quotes from `counted` up to `end` into the parity.
    private func countQuotes(to end: Int) {
        guard end > counted else { return }
        let quotes = SWAR.count(of: Self.quote, in: UnsafeBufferPointer(rebasing: cutter.window.bytes[counted..<end]))
        if quotes & 1 == 1 { oddQuotes.toggle() }
        counted = end
    }

    /// Whether a CR in `range` is not followed by a line feed.
    private func hasLoneCarriageReturn(_ range: Range<Int>) -> Bool {
        let bytes = cutter.window.bytes
        var index = range.lowerBound
        while index < range.upperBound,
            let found = memchr(bytes.baseAddress! + index, Int32(Self.carriageReturn), range.upperBound - index)
        {
            let at = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if at + 1 >= range.upperBound || bytes[at + 1] != Self.lineFeed { return true }
            index = at + 1
        }
        return false
    }
}
