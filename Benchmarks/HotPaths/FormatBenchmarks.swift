import Benchmark
import SpeakEasyData

/// Each reader and each writer over 10,000 seeded events, in memory: the parsing and formatting that
/// `export` and `validate` spend their time in, without the file system.
func formatBenchmarks() {
    for format in DataFormat.allCases {
        let input = SampleEvents.bytes(format)
        Benchmark("read-\(format)") { benchmark in
            var reader = try EntityFiles.reader(for: ByteInput(name: "benchmark", bytes: input), format: format)
            benchmark.startMeasurement()
            var count = 0
            while let entity = try reader.next() {
                blackHole(entity)
                count += 1
            }
            benchmark.stopMeasurement()
            precondition(count == SampleEvents.count, "read \(count) of \(SampleEvents.count) entities")
        }
    }
    // A feed as export and validate read a large one: cut into pieces of 1 MiB, each parsed by
    // libxml2's SAX2 parser (AtomPieceReader).
    let atom = SampleEvents.bytes(.atom)
    Benchmark("read-atom-pieces") { benchmark in
        let splitter = AtomFeedSplitter(input: ByteInput(name: "benchmark", bytes: atom), pieceSize: 1 << 20)
        benchmark.startMeasurement()
        var count = 0
        while let piece = try splitter.nextPiece() {
            var reader = try EntityFiles.reader(for: piece, format: .atom)
            while let entity = try reader.next() {
                blackHole(entity)
                count += 1
            }
        }
        benchmark.stopMeasurement()
        precondition(count == SampleEvents.count, "read \(count) of \(SampleEvents.count) entities")
    }
    for format in DataFormat.allCases {
        let entities = SampleEvents.entities
        // The JSON, NDJSON and CSV writers allocate nothing an entity; Atom's does.
        let tolerance = format == .atom ? Tolerance.relative : Tolerance.nearZero
        Benchmark("write-\(format)", configuration: .init(thresholds: tolerance)) { benchmark in
            var formatter = try EntityFiles.formatter(EntityFiles.WriteOptions(format: format))
            // The tools move their buffer to the file at 1 MiB (OutputFile): the same here, to nowhere.
            var out: [UInt8] = []
            out.reserveCapacity(2 << 20)
            benchmark.startMeasurement()
            formatter.begin(into: &out)
            for entity in entities {
                try formatter.append(entity, into: &out)
                if out.count >= 1 << 20 { out.removeAll(keepingCapacity: true) }
            }
            formatter.end(into: &out)
            benchmark.stopMeasurement()
            blackHole(out)
        }
    }
}
