import Benchmark
import SpeakEasyData

/// The seed encoder: 10,000 drawn events to their stored JSON and canonical digests, as `seed` does
/// before it hands them to the store.
func seedingBenchmarks() {
    let generator = SampleEvents.generator
    let draws = generator.eventDrawsInKeyOrder()
    Benchmark("encode-seed-events") { benchmark in
        let encoder = EventEncoder(generator)
        var scratch: [UInt8] = []
        benchmark.startMeasurement()
        for draw in draws {
            let entity = encoder.encode(draw)
            blackHole(encoder.digest(of: draw, entity: entity, scratch: &scratch))
        }
        benchmark.stopMeasurement()
    }
}
