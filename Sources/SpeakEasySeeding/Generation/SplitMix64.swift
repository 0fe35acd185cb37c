import SpeakEasyCore
package import SpeakEasyModel

/// The seeded random generator behind every generated value: SplitMix64 (Steele, Lea & Flood 2014).
///
/// We own it, and the helpers below, because the standard library may change how
/// `random(in:using:)` consumes a generator between releases; the golden test for seed 42 pins the
/// whole stream. Changing anything here is a new ``SeedGenerator/version``.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= ByteHash.golden
        return ByteHash.mix(state)
    }

    /// A uniform integer in `0..<bound` (Lemire's multiply-and-reject method, exact and unbiased).
    package mutating func uniform(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "uniform(below:) needs a positive bound")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold { product = next().multipliedFullWidth(by: bound) }
        }
        return product.high
    }

    /// A uniform index into a collection of `count` items.
    package mutating func index(below count: Int) -> Int { Int(uniform(below: UInt64(count))) }

    /// A random version-4 GUID: 122 random bits from two draws, version and variant bits set.
    package mutating func guid() -> EdmGuid {
        let high = next() & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
        let low = next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        return EdmGuid(high: high, low: low)
    }
}
