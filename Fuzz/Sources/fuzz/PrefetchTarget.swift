import Foundation
import SpeakEasyCore
import SpeakEasyFormats
import SpeakEasyModel

/// `PrefetchingFileReader`, the path `export` and `validate` read files through: reader threads
/// (several on a file cut into pieces) hand entities over in batches. On the same bytes it must give
/// what the whole reader gives: the same entities, or the same first error (issue 5 found it dropping
/// the batch read before an error, so an entry's bad value was masked by a later entry's XML error).
enum PrefetchTarget {
    /// As in `pieces`, `SPEAKEASY_FUZZ_PIECES=ndjson,csv,json` leaves Atom out while an Atom finding is open.
    static let formats: [DataFormat] = [.atom, .json, .ndjson, .csv].filter {
        ReaderTargets.piecesFormats.contains($0)
    }

    /// The first bytes choose the format, the piece size and the batch size; the rest is the file.
    static func run(_ data: [UInt8]) {
        guard data.count >= 3 else { return }
        let format = formats[Int(data[0]) % formats.count]
        let bytes = Array(data[3...])
        let whole = ReaderTargets.read(bytes, format: format)

        let path = NSTemporaryDirectory() + "speakeasy-fuzz-prefetch-\(getpid())"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            fatalError("cannot write \(path)")
        }
        defer { unlink(path) }
        var reader = PrefetchingFileReader(paths: [path], options: EntityFiles.ReadOptions(format: format))
        reader.pieceSize = 16 + Int(data[1]) * 4
        reader.batchSize = 1 + Int(data[2] % 8)
        reader.pieceReaders = 2
        var entities: [Entity] = []
        var error: ReaderTargets.Place?
        do {
            // PrefetchingFileReader is no Sequence: its forEach reads on threads of its own.
            // swift-format-ignore: ReplaceForEachWithForLoop
            try reader.forEach { entity, _ in entities.append(entity) }
        } catch let failure as FormatError {
            error = ReaderTargets.Place(failure)
        } catch {
            fatalError("prefetching \(format): not a FormatError: \(error)")
        }
        ReaderTargets.expectAgreement(
            ReaderTargets.Outcome(entities: entities, error: error),
            with: whole,
            "\(format) prefetched in pieces of \(reader.pieceSize), batches of \(reader.batchSize)"
        )
    }
}
