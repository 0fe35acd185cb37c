import SpeakEasyCore

/// What an ``InputSplitter`` keeps while it cuts a file: the input read ahead and not yet cut off,
/// where the next piece starts in it and at which line and column of the file, and whether the last
/// piece has gone. The splitters differ only in where they cut and what they put around a piece.
struct PieceCutter {
    let input: ByteInput
    /// The size a piece reaches before it is cut at the next place a cut is possible.
    let pieceSize: Int
    /// The most read ahead while no place to cut has turned up: then the rest is one last piece.
    let limit: Int
    /// The input read but not yet cut off, from `start` on.
    private(set) var window = ReadWindow()
    /// Where the next piece starts in `window`.
    private(set) var start = 0
    /// Pieces cut so far.
    private(set) var pieces = 0
    /// Whether the last piece has been cut.
    private(set) var finished = false
    /// The file's line and column at `window[start]`.
    private(set) var line = 1
    private(set) var column = 1
    /// Whether columns count bytes, as the JSON reader's do, rather than characters (``TextPosition``).
    let countsColumnsInBytes: Bool

    init(input: ByteInput, pieceSize: Int, limit: Int, countsColumnsInBytes: Bool = false) {
        self.input = input
        self.pieceSize = max(1, pieceSize)
        self.limit = max(limit, pieceSize)
        self.countsColumnsInBytes = countsColumnsInBytes
    }

    /// The bytes read ahead of the next piece.
    var pending: Int { window.count - start }

    /// Whether more than `limit` bytes are read ahead of the next piece.
    var isOverLimit: Bool { pending > limit }

    /// Reads more input into the window, first dropping what earlier pieces took (indexes into the
    /// window move down by the returned `dropped`); `read` is false at the end of the input.
    mutating func readMore() throws(FormatError) -> (read: Bool, dropped: Int) {
        var dropped = 0
        if start > 0, start >= window.count / 2 {
            dropped = start
            window.drop(start)
            start = 0
        }
        do { return (try window.read(from: input, maximum: 1 << 20) > 0, dropped) } catch { throw FormatError(error) }
    }

    /// The window's bytes up to `end` as the next piece, between `prefix` and `suffix`.
    mutating func cut(through end: Int, prefix: [UInt8] = [], suffix: [UInt8] = [], origin: TextOrigin) -> InputPiece {
        var bytes = prefix
        bytes.reserveCapacity(prefix.count + end - start + suffix.count)
        bytes.append(contentsOf: window.bytes[start..<end])
        bytes.append(contentsOf: suffix)
        let piece = InputPiece(
            input: ByteInput(name: input.name, bytes: bytes),
            origin: origin,
            fileOffset: fileOffset,
            addedBytes: prefix.count,
            length: Int64(end - start)
        )
        advancePosition(to: end)
        start = end
        pieces += 1
        return piece
    }

    /// Passes over the window's bytes up to `end`, which no piece holds: the splitter has checked them.
    mutating func skip(to end: Int) {
        advancePosition(to: end)
        start = end
    }

    /// The rest of the input, after `prefix`, as the last piece: read as a stream.
    mutating func cutRest(prefix: [UInt8] = [], origin: TextOrigin) -> InputPiece {
        finished = true
        var bytes = prefix
        bytes.append(contentsOf: window.bytes[start...])
        let piece = InputPiece(
            input: ByteInput(name: input.name, bytes: bytes, then: input),
            origin: origin,
            fileOffset: fileOffset,
            addedBytes: prefix.count,
            length: nil
        )
        (window, start) = (ReadWindow(), 0)  // nothing more is read ahead: its memory goes now
        return piece
    }

    /// The file's bytes before `window[start]`.
    private var fileOffset: Int64 { input.bytesRead - Int64(window.count - start) }

    /// Moves the line and column from `window[start]` to `window[end]` (in characters unless
    /// `countsColumnsInBytes`: an Atom piece may start within a line, ``TextPosition``).
    private mutating func advancePosition(to end: Int) {
        let bytes = UnsafeBufferPointer(rebasing: window.bytes[start..<end])
        if countsColumnsInBytes {
            let newlines = SWAR.count(of: UInt8(ascii: "\n"), in: bytes)
            if newlines == 0 {
                column += bytes.count
            } else {
                line += newlines
                column = bytes.count - bytes.lastIndex(of: UInt8(ascii: "\n"))!
            }
        } else {
            (line, column) = TextPosition.after(bytes, line: line, column: column)
        }
    }
}
