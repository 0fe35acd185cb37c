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
