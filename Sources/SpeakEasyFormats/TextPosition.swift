import SpeakEasyCore

/// Lines and columns as libxml2 counts them, and so as every reader reports them: a line ends at
/// `\n`, and columns count UTF-8 characters from 1. The splitters count so where a piece starts, and
/// the Atom tag screen where a tag does; an Atom piece may start within a line, so the two must agree
/// (counted in bytes, a two-byte character earlier on the line put errors one column apart).
enum TextPosition {
    /// The line and column just past `bytes`, which start at `line` and `column`.
    static func after(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, column: Int) -> (line: Int, column: Int) {
        let newlines = SWAR.count(of: UInt8(ascii: "\n"), in: bytes)
        // (Searched backwards only when there is a line break.)
        guard newlines > 0, let last = bytes.lastIndex(of: UInt8(ascii: "\n")) else {
            return (line, column + SWAR.characters(in: bytes))
        }
        return (line + newlines, 1 + SWAR.characters(in: UnsafeBufferPointer(rebasing: bytes[(last + 1)...])))
    }
}
