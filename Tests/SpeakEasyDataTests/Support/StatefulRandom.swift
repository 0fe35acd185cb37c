/// A random number generator with state of its own (SplitMix64), seeded from the system's.
///
/// `SystemRandomNumberGenerator` has no stored state, so every `inout` of it is the one address Swift
/// gives values of no size. Test cases that run at once and pass one to a function of their own all
/// "modify" that address, and ThreadSanitizer reported it as a race (CI, `JSONWireSpellingTests`).
struct StatefulRandom: RandomNumberGenerator {
    private var state = UInt64.random(in: .min ... .max)

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
