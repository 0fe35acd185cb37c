import SpeakEasyData

/// Reads a file through ``PrefetchingFileReader`` with a given number of piece readers and piece size,
/// for comparing reading in pieces with reading whole.
enum PieceReading {
    struct Read {
        var entity: Entity
        var line: Int
    }

    static func read(_ path: String, pieceReaders: Int, pieceSize: Int) -> Result<[Read], FormatError> {
        var reader = PrefetchingFileReader(paths: [path], options: .init())
        reader.pieceReaders = pieceReaders
        reader.pieceSize = pieceSize
        var entities: [Read] = []
        do {
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

