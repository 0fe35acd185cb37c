package import SpeakEasyCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts NDJSON into pieces of whole lines that parse on their own, so that several threads can share
/// one file.
///
/// A cut goes before a line that starts with `{`. In valid NDJSON of entities that is always an
/// object's start: a string holds no raw line break, and an entity's values are never objects. Where
/// invalid input has such a line inside an object, the object's first error (the raw line break, the
/// nested object) comes before the cut, in the same piece and from the same object start as for a
/// single reader. So the pieces read exactly as the whole file does. A piece's reader also takes it
/// whole (``ByteInput/takeBytesInMemory()``), so it never has to look past the piece for an object's end.
///
/// Where no cut turns up within `limit` bytes, the rest of the file is one last piece, read as a stream.
package final class JSONLinesSplitter: InputSplitter {
    private var cutter: PieceCutter
    /// Where the search for a cut goes on in the cutter's window: there is none before it.
    private var searched = 0

    package init(input: ByteInput, pieceSize: Int = 1 << 20, limit: Int = 32 << 20) {
        cutter = PieceCutter(input: input, pieceSize: pieceSize, limit: limit)
    }

    package func nextPiece() throws(FormatError) -> InputPiece? {
        if cutter.finished { return nil }
        while true {
            if cutter.pending >= cutter.pieceSize, let cut = nextCut() {
                return cutter.cut(through: cut, origin: TextOrigin(fileLine: cutter.line))
            }
            if cutter.isOverLimit { break }
            let (read, dropped) = try cutter.readMore()
            searched = max(0, searched - dropped)
            if !read { break }
        }
        return cutter.cutRest(origin: TextOrigin(fileLine: cutter.line))
    }

    /// The first place to cut at (the index of a line's `{`), `pieceSize` bytes on or more.
    private func nextCut() -> Int? {
        let bytes = cutter.window.bytes
        var index = max(cutter.start + cutter.pieceSize - 1, searched)
        // Each line break needs the byte after it: the window's last byte waits for the next read.
        while index < bytes.count - 1,
            let found = memchr(bytes.baseAddress! + index, Int32(UInt8(ascii: "\n")), bytes.count - 1 - index)
        {
            let at = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            index = at + 1
            if bytes[index] == UInt8(ascii: "{") {
                searched = index
                return index
            }
        }
        searched = max(index, bytes.count - 1)
        return nil
    }
}
