import SpeakEasyCore
import Synchronization

/// A reply's `x-ms-request-id`: a version 4 UUID, lower-case, as Azure writes it.
///
/// Each is SplitMix64's mix of a counter from a random start, at no system call: before the version
/// bits are set no two counts give one value (the mix is a bijection), so a repeat within a process
/// would take some 2⁶⁰ requests.
/// Foundation's `UUID` opens and reads `/dev/urandom` for each one on Linux, and even
/// `SystemRandomNumberGenerator` makes a system call per number.
enum RequestIdentifier {
    private static let counter = Atomic<UInt64>(0)
    private static let start: (UInt64, UInt64) = {
        var random = SystemRandomNumberGenerator()
        return (random.next(), random.next())
    }()

    static func make() -> String {
        let count = counter.add(1, ordering: .relaxed).newValue
        let high = ByteHash.mix(start.0 &+ count &* ByteHash.golden) & ~0xF000 | 0x4000  // version 4
        let low = ByteHash.mix(start.1 &+ count &* ByteHash.golden) & ~(0xC << 60) | 0x8 << 60  // the RFC 4122 variant
        return String(unsafeUninitializedCapacity: 36) { text in
            var count = 0
            for digit in 0..<32 {
                if digit == 8 || digit == 12 || digit == 16 || digit == 20 {
                    text[count] = UInt8(ascii: "-")
                    count += 1
                }
                let nibble = UInt8(((digit < 16 ? high : low) >> (60 - 4 * UInt64(digit % 16))) & 0xF)
                text[count] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
                count += 1
            }
            return count
        }
    }
}
