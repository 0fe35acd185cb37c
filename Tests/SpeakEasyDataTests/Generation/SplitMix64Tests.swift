import SpeakEasyData
import Testing

@Suite("SplitMix64 and its uniform helpers")
struct SplitMix64Tests {
    @Test("seed 0 gives the reference outputs")
    func referenceOutputs() {
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }

    @Test("the same seed gives the same stream, another seed another")
    func determinism() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        var c = SplitMix64(seed: 43)
        let first = (0..<100).map { _ in a.next() }
        #expect(first == (0..<100).map { _ in b.next() })
        #expect(first != (0..<100).map { _ in c.next() })
    }

    @Test(
        "uniform(below:) stays in range and reaches every value of a small bound",
        arguments: [1, 2, 3, 6, 7, 8, 10, 31]
    )
    func uniformSmallBounds(bound: UInt64) {
        var random = SplitMix64(seed: bound)
        var seen = Set<UInt64>()
        for _ in 0..<2_000 {
            let value = random.uniform(below: bound)
            #expect(value < bound)
            seen.insert(value)
        }
        #expect(seen.count == Int(bound))
    }

    @Test(
        "uniform(below:) stays in range for large and awkward bounds",
        arguments: [UInt64(1) << 63 + 1, .max, .max - 1, 1 << 32 + 3, 864_000_000_001]
    )
    func uniformLargeBounds(bound: UInt64) {
        var random = SplitMix64(seed: 99)
        for _ in 0..<5_000 { #expect(random.uniform(below: bound) < bound) }
    }

    @Test("uniform(below:) is roughly uniform (no value of 6 is more than 10% off its share of 60,000)")
    func uniformity() {
        var random = SplitMix64(seed: 6)
        var counts = [Int](repeating: 0, count: 6)
        for _ in 0..<60_000 { counts[Int(random.uniform(below: 6))] += 1 }
        #expect(counts.allSatisfy { (9_000...11_000).contains($0) }, "\(counts)")
    }

    @Test("index(below:) covers a collection's indices")
    func index() {
        var random = SplitMix64(seed: 1)
        let indices = Set((0..<1_000).map { _ in random.index(below: 8) })
        #expect(indices == Set(0..<8))
    }

    @Test("guid() sets the version 4 and RFC 4122 variant bits")
    func guidBits() {
        var random = SplitMix64(seed: 0)
        var guids = Set<EdmGuid>()
        for _ in 0..<1_000 {
            let guid = random.guid()
            #expect(guid.high >> 12 & 0xF == 4)
            #expect(guid.low >> 62 == 0b10)
            let text = Array(guid.description)
            #expect(text[14] == "4")
            #expect("89ab".contains(text[19]))
            #expect(guid.description == guid.description.lowercased())
            guids.insert(guid)
        }
        #expect(guids.count == 1_000)
    }

    @Test("guid() keeps the other 122 bits from two draws")
    func guidFromDraws() {
        var random = SplitMix64(seed: 0)
        let guid = random.guid()
        #expect(guid.high == 0xE220_A839_7B1D_4DAF)
        #expect(guid.low == 0xAE78_9E6A_A1B9_65F4)
    }
}
