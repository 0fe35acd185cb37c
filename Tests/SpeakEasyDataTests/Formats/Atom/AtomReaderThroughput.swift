import Foundation
import SpeakEasyData
import Testing

/// The Atom reader's throughput on a large feed: a benchmark, run by `bench/atom/run.sh` in a release
/// build, never as part of the test suite (it is enabled only when `ATOM_BENCH_FEED` names a file).
@Suite("Atom reader throughput (benchmark)")
struct AtomReaderThroughput {
    static let path = ProcessInfo.processInfo.environment["ATOM_BENCH_FEED"]

    @Test("reads every entity of $ATOM_BENCH_FEED and prints MB/s", .enabled(if: path != nil, "set ATOM_BENCH_FEED to a feed to measure"))
    func throughput() throws {
        let path = try #require(Self.path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        for _ in 0..<3 {
            let reader = AtomEntityReader(input: try ByteInput(path: path))
            let start = ContinuousClock.now
            var entities = 0
            var properties = 0
            while let entity = try reader.next() {
                entities += 1
                properties += entity.properties.count
            }
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            print(String(format: "atom-reader: %d entities, %d properties, %.0f MB in %.2f s = %.0f MB/s", entities, properties, Double(size) / 1e6, seconds, Double(size) / 1e6 / seconds))
        }
    }
}
