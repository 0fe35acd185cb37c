import SpeakEasyCore
import SpeakEasyFormats
import SpeakEasyModel

#if canImport(Glibc)
import Glibc
#endif

/// The entity readers, with two oracles besides "no crash, no hang": what a reader accepts our
/// writers write and our readers read back equal (round trip), and the piece-parallel readers agree
/// with the whole-file reader on the same bytes (differential).
enum ReaderTargets {
    /// What reading a whole input gave: the entities up to the first error, and that error's place.
    struct Outcome {
        var entities: [Entity]
        var error: Place?
    }

    struct Place: Equatable, CustomStringConvertible {
        var line: Int?
        var column: Int?
        var reason: String

        init(_ error: FormatError) {
            line = error.line
            column = error.column
            reason = error.reason
        }

        static func == (a: Place, b: Place) -> Bool { a.line == b.line && a.column == b.column }
        var description: String {
            "line \(line.map(String.init) ?? "?"), column \(column.map(String.init) ?? "?"): \(reason)"
        }
    }

    static func read(_ bytes: [UInt8], format: DataFormat) -> Outcome {
        var entities: [Entity] = []
        do {
            var reader = try EntityFiles.reader(for: ByteInput(name: "input", bytes: bytes), format: format)
            while let entity = try reader.next() { entities.append(entity) }
            return Outcome(entities: entities, error: nil)
        } catch {
            return Outcome(entities: entities, error: Place(error))
        }
    }

    /// A whole input; when it reads, it must survive every writer that can carry it, hold as many
    /// entities as a scan of its structure finds (JSON), and give an infinite or NaN Double only where
    /// it spells one out.
    static func whole(_ bytes: [UInt8], format: DataFormat) {
        let outcome = read(bytes, format: format)
        if format == .atom { checkPieceReaderAgrees(bytes, with: outcome) }
        guard outcome.error == nil else { return }
        if format == .json, let count = JSONEntityCount.of(bytes), count != outcome.entities.count {
            fatalError("json: read \(outcome.entities.count) entities from a document that holds \(count)")
        }
        guard !outcome.entities.isEmpty else { return }
        checkNonFiniteDoubles(outcome.entities, in: bytes)
        // The stress inputs (Fuzz/stress-seeds, megabytes) are there for the reader's own limits; four
        // writers and readers more would spend the time limit on work that is not under test.
        guard bytes.count <= maximumRoundTripBytes else { return }
        roundTrip(outcome.entities, from: format)
    }

    /// ``AtomPieceReader`` (libxml2's SAX2 parser, handing odd input to the text reader) reads an
    /// input as the text reader does: the same entities, and the same first error, word for word.
    static func checkPieceReaderAgrees(_ bytes: [UInt8], with outcome: Outcome) {
        let reader = AtomPieceReader(bytes: bytes, source: "input", origin: .start)
        var entities: [Entity] = []
        var error: Place?
        do {
            while let entity = try reader.next() { entities.append(entity) }
        } catch let failure {
            error = Place(failure)
        }
        guard "\(entities)" == "\(outcome.entities)", error == outcome.error, error?.reason == outcome.error?.reason
        else {
            fatalError(
                """
                atom: the SAX2 piece reader (text reader: \(reader.readByTextReader)) read \(entities.count) entities, \
                \(error?.description ?? "no error"); the text reader \(outcome.entities.count), \
                \(outcome.error?.description ?? "no error")
                """
            )
        }
    }

    /// Inputs up to this size go through the round trip; Fuzz/run's usual inputs are at most 64 KB.
    static let maximumRoundTripBytes = 256 << 10

    /// Every format spells an infinite or NaN Double as a word (`INF`, `Infinity`, `NaN`): a number
    /// too large for a Double is out of range, not infinite (issue 5 found `1e999` read as Infinity,
    /// which the round trip cannot see, since every writer carries Infinity).
    static func checkNonFiniteDoubles(_ entities: [Entity], in bytes: [UInt8]) {
        // The input is searched only when such a value turns up (most inputs have none).
        lazy var text = String(decoding: bytes, as: UTF8.self).lowercased()
        for entity in entities {
            for property in entity.properties {
                guard case .double(let value) = property.value, !value.isFinite else { continue }
                if value.isInfinite, !text.contains("inf") {
                    fatalError("\(property.name) read as \(value) from an input that spells no infinity")
                }
                if value.isNaN, !text.contains("nan") {
                    fatalError("\(property.name) read as NaN from an input that spells no NaN")
                }
            }
        }
    }

    /// Written in each lossless format and read back, the entities are the same (content, Timestamp
    /// and ETag aside: the writers of files keep them as properties of their own or drop them).
    static func roundTrip(_ entities: [Entity], from format: DataFormat) {
        var targets: [EntityFiles.WriteOptions] = [.init(format: .json), .init(format: .ndjson), .init(format: .atom)]
        var typed = EntityFiles.WriteOptions(format: .csv)
        typed.typedCSV = true
        targets.append(typed)
        let expected = entities.map(comparable)
        for options in targets {
            // A value a format cannot carry (a control character in XML) is the writer's error to give.
            guard let written = try? EntityFiles.bytes(of: entities, options: options) else { continue }
            let back = read(written, format: options.format)
            if let error = back.error {
                fatalError(
                    "read from \(format), written as \(options.format)\(options.typedCSV ? " (typed)" : ""), not read back: \(error)"
                )
            }
            let got = back.entities.map(comparable)
            guard got == expected else {
                if let pair = zip(got, expected).first(where: { $0 != $1 }) {
                    let difference = zip(pair.0.split(separator: " ␟ "), pair.1.split(separator: " ␟ ")).first {
                        $0 != $1
                    }
                    fatalError(
                        "read from \(format), written as \(options.format)\(options.typedCSV ? " (typed)" : ""): \(difference.map { "'\($0.1.debugDescription)' came back as '\($0.0.debugDescription)'" } ?? "properties differ")"
                    )
                }
                let index =
                    zip(got, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                    ?? min(got.count, expected.count)
                fatalError(
                    "read from \(format), written as \(options.format)\(options.typedCSV ? " (typed)" : ""), read back differently at entity \(index): "
                        + "\(index < expected.count ? String(describing: expected[index]) : "none") became \(index < got.count ? String(describing: got[index]) : "none")"
                )
            }
        }
    }

    /// An entity as text, properties sorted: equal exactly when the values and types are (NaN included).
    static func comparable(_ entity: Entity) -> String {
        let properties = entity.properties.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return
            ([entity.partitionKey, entity.rowKey]
            + properties.map { "\($0.name):\($0.value.type):\($0.value.description)" }).joined(separator: " ␟ ")
    }

    /// The formats `pieces` and `prefetch` cut: `SPEAKEASY_FUZZ_PIECES=ndjson,csv,json` leaves Atom out, for a
    /// run while an Atom finding is open (Fuzz/Open/README.md), so that it keeps finding anything else.
    static let piecesFormats: [DataFormat] = {
        let all: [DataFormat] = [.atom, .ndjson, .csv, .json]
        guard let chosen = getenv("SPEAKEASY_FUZZ_PIECES").map({ String(cString: $0) }) else { return all }
        let names = chosen.split(separator: ",").map(String.init)
        let formats = all.filter { names.contains($0.rawValue) }
        return formats.isEmpty ? all : formats
    }()

    /// The first bytes choose the format and a small piece size; the rest is the input. The pieces,
    /// read one after another as the parallel path reads them, give what the whole input gives.
    static func pieces(_ data: [UInt8]) {
        guard data.count >= 2 else { return }
        let format = piecesFormats[Int(data[0]) % piecesFormats.count]
        let pieceSize = 16 + Int(data[1]) * 4
        let bytes = Array(data[2...])
        let whole = read(bytes, format: format)
        var entities: [Entity] = []
        var error: Place?
        do {
            let splitter = EntityFiles.splitter(
                for: ByteInput(name: "input", bytes: bytes),
                format: format,
                pieceSize: pieceSize
            )
            while let piece = try splitter.nextPiece() {
                var reader = try EntityFiles.reader(for: piece, format: format)
                while let entity = try reader.next() { entities.append(entity) }
            }
        } catch let failure {
            error = Place(failure)
        }
        expectAgreement(Outcome(entities: entities, error: error), with: whole, "\(format) in pieces of \(pieceSize)")
    }

    /// A differential oracle's verdict: the same entities, or the same first error (a reader may fail
    /// before it gives the entities read ahead of the error, so those are not compared then).
    static func expectAgreement(_ other: Outcome, with whole: Outcome, _ what: @autoclosure () -> String) {
        let agree =
            whole.error != nil || other.error != nil ? whole.error == other.error : whole.entities == other.entities
        guard agree else {
            fatalError(
                "\(what()): \(other.entities.count) entities then \(other.error.map(String.init(describing:)) ?? "the end"); "
                    + "whole: \(whole.entities.count) then \(whole.error.map(String.init(describing:)) ?? "the end")"
            )
        }
    }
}
