import SpeakEasyData
import Testing

/// Reads a file through ``PrefetchingFileReader`` with a given number of piece readers and piece size,
/// for comparing reading in pieces with reading whole.
enum PieceReading {
    struct Read {
        var entity: Entity
        var line: Int
    }

    /// `text` as bytes with its first `~~` made C3 28: a UTF-8 lead byte without its continuation.
    static func invalidUTF8(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "~"))!
        bytes[at] = 0xC3
        bytes[at + 1] = 0x28
        return bytes
    }

    /// Expects each document, written to `fileName`, to read the same in pieces as whole: the same
    /// entities with the same lines. Returns how many entities each document had.
    static func expectSameEntities(
        _ documents: [(String, String)],
        fileName: String,
        pieceSize: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        try withTemporaryDirectorySync { directory in
            for (name, text) in documents {
                let path = directory + "/" + fileName
                try writeFile(path, text)
                let whole = try read(path, pieceReaders: 1, pieceSize: pieceSize).get()
                let pieces = try read(path, pieceReaders: 2, pieceSize: pieceSize).get()
                #expect(pieces.map(\.entity) == whole.map(\.entity), "\(name)", sourceLocation: sourceLocation)
                #expect(pieces.map(\.line) == whole.map(\.line), "\(name)", sourceLocation: sourceLocation)
                counts[name] = whole.count
            }
        }
        return counts
    }

    /// Expects each document, which one reader refuses, to be refused in pieces with the same error:
    /// reason, line and column.
    static func expectSameError(
        _ documents: [(String, [UInt8])],
        fileName: String,
        pieceSize: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try withTemporaryDirectorySync { directory in
            for (name, bytes) in documents {
                let path = directory + "/" + fileName
                try writeFile(path, bytes)
                guard case .failure(let expected) = read(path, pieceReaders: 1, pieceSize: pieceSize) else {
                    Issue.record("\(name) was accepted by one reader", sourceLocation: sourceLocation)
                    continue
                }
                #expect(
                    read(path, pieceReaders: 2, pieceSize: pieceSize).failure == expected,
                    "\(name)",
                    sourceLocation: sourceLocation
                )
            }
        }
    }

    /// A piece's bytes as a reader sees them (what the splitter added included), and where it starts.
    struct Cut {
        var bytes: [UInt8]
        var addedBytes: Int
        var fileLine: Int
        /// The file's own bytes.
        var fileBytes: ArraySlice<UInt8> { bytes[addedBytes...] }
    }

    /// Every piece `splitter` cuts.
    static func cuts(_ splitter: any InputSplitter) throws -> [Cut] {
        var cuts: [Cut] = []
        while let piece = try splitter.nextPiece() {
            var bytes: [UInt8] = []
            while try piece.input.read(appendingTo: &bytes, maximum: 4096) > 0 {}
            cuts.append(Cut(bytes: bytes, addedBytes: piece.addedBytes, fileLine: piece.origin.fileLine))
        }
        return cuts
    }

    static func read(_ path: String, pieceReaders: Int, pieceSize: Int) -> Result<[Read], FormatError> {
        var reader = PrefetchingFileReader(paths: [path], options: .init())
        reader.pieceReaders = pieceReaders
        reader.pieceSize = pieceSize
        var entities: [Read] = []
        do {
            // PrefetchingFileReader is no Sequence: its forEach reads on threads of its own.
            // swift-format-ignore: ReplaceForEachWithForLoop
            try reader.forEach { entity, position in entities.append(Read(entity: entity, line: position.line)) }
            return .success(entities)
        } catch let error as FormatError {
            return .failure(error)
        } catch {
            fatalError("\(error)")
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
