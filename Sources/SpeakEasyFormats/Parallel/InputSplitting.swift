package import SpeakEasyCore

/// A file cut into pieces that readers parse on their own, so that several threads can share one large
/// file (``PrefetchingFileReader``). Pieces come in file order; one caller at a time.
package protocol InputSplitter: AnyObject {
    /// The next piece, or nil after the last one.
    func nextPiece() throws(FormatError) -> InputPiece?
}

/// A piece of a file, as a document of its own.
package struct InputPiece {
    /// The piece's bytes (with whatever makes it a document), named as the file.
    package var input: ByteInput
    /// Where the piece starts in the file.
    package var origin: TextOrigin
    /// The file's bytes before the piece.
    package var fileOffset: Int64
    /// Bytes put before the file's own, which are not the file's.
    package var addedBytes: Int
    /// The file's bytes in the piece; nil for a last piece that streams the rest of the file.
    package var length: Int64?

    /// The file's bytes read so far, through this piece's reading (for progress).
    package var fileBytesRead: Int64 {
        let own = max(0, input.bytesRead - Int64(addedBytes))
        return fileOffset + min(own, length ?? .max)
    }
}
