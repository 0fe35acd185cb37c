/// A reply's `x-ms-request-id`: a random (version 4) UUID, lower-case, as Azure writes it.
///
/// Made here rather than with Foundation's `UUID`, which on Linux opens and reads `/dev/urandom`
/// for each one: three system calls on every request.
enum RequestIdentifier {
    static func make() -> String {
        var random = SystemRandomNumberGenerator()
        let high = (random.next() as UInt64) & ~0xF000 | 0x4000  // version 4
        let low = (random.next() as UInt64) & ~(0xC << 60) | 0x8 << 60  // the RFC 4122 variant
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
