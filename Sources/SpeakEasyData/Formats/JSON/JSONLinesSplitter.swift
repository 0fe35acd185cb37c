#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Cuts NDJSON into pieces of whole lines that parse on their own, so that several threads can share
/// one file.
///
/// A cut goes after a line break whose line ends in `}` and whose next line starts with `{`: between
/// two objects. Nowhere else can valid NDJSON have that (a string holds no raw line break; inside an
/// entity a `}` is followed by `,` or `}`), and where invalid input has it, its first error comes
/// before the cut, in the same piece and from the same object start as for a single reader — a raw
/// line break in a string or a nested object is refused where it appears. So the pieces read exactly
/// as the whole file does. A piece's reader also takes it whole (``ByteInput/takeBytesInMemory()``),
/// so it never has to look past the piece for an object's end.
///
/// Where no cut turns up within `limit` bytes, the rest of the file is one last piece, read as a stream.
package final class JSONLinesSplitter: InputSplitter {
    private let input: ByteInput
    private let pieceSize: Int
    private let limit: Int
    private var window = ReadWindow()
    /// Where the next piece starts in `window`.
    private var start = 0
    private var pieces = 0
    private var finished = false
    /// The file's line at `window[start]`.
    private var line = 1
    /// Where the search for a cut goes on: there is none before it.
    private var searched = 0

    package init(input: ByteInput, pieceSize: Int = 1 << 20, limit: Int = 32 << 20) {
        self.input = input
        self.pieceSize = max(1, pieceSize)
        self.limit = max(limit, pieceSize)
    }

    deinit { window.free() }

    package func nextPiece() throws(FormatError) -> InputPiece? {
        if finished { return nil }
        while true {
            if window.count - start >= pieceSize, let cut = nextCut() { return piece(through: cut) }
            if window.count - start > limit { return lastPiece() }
            if start > 0, start >= window.count / 2 {
                window.drop(start)
                searched = max(0, searched - start)
                start = 0
            }
            do {
                guard try window.read(from: input, maximum: 1 << 20) > 0 else { return lastPiece() }
            } catch {
                throw FormatError(error)
            }
        }
    }

    /// The first place to cut at (the index of a line's `{`), `pieceSize` bytes on or more.
    private func nextCut() -> Int? {
        let bytes = window.bytes
        var index = max(start + pieceSize - 1, searched)
        // Each line break needs the byte after it: the window's last byte waits for the next read.
        while index < bytes.count - 1, let found = memchr(bytes.baseAddress! + index, Int32(UInt8(ascii: "\n")), bytes.count - 1 - index) {
            let at = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            index = at + 1
            guard bytes[at + 1] == UInt8(ascii: "{") else { continue }
            var before = at - 1
            while before >= start, bytes[before] == UInt8(ascii: "\r") || bytes[before] == UInt8(ascii: " ") || bytes[before] == UInt8(ascii: "\t") {
                before -= 1
            }
            if before >= start, bytes[before] == UInt8(ascii: "}") {
                searched = at + 1
                return at + 1
            }
        }
        searched = max(index, bytes.count - 1)
        return nil
    }

    private func piece(through end: Int) -> InputPiece {
        let bytes = Array(window.bytes[start..<end])
        let piece = InputPiece(
            input: ByteInput(name: input.name, bytes: bytes), origin: TextOrigin(fileLine: line), fileOffset: fileOffset, addedBytes: 0,
            length: Int64(bytes.count))
        line += SWAR.count(of: UInt8(ascii: "\n"), in: UnsafeBufferPointer(rebasing: window.bytes[start..<end]))
        start = end
        pieces += 1
        return piece
    }

    /// The rest of the input as one piece, read as a stream.
    private func lastPiece() -> InputPiece {
        finished = true
        let piece = InputPiece(
            input: ByteInput(name: input.name, bytes: Array(window.bytes[start...]), then: input), origin: TextOrigin(fileLine: line),
            fileOffset: fileOffset, addedBytes: 0, length: nil)
        window.free()
        return piece
    }

    /// The file's bytes before `window[start]`.
    private var fileOffset: Int64 { input.bytesRead - Int64(window.count - start) }
}
