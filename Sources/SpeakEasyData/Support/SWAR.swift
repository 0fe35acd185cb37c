/// Word-at-a-time byte tests (SWAR: SIMD within a register) for the scanners of long text fields.
///
/// Each returns a word with the high bit set in every byte that matches. Bits above the lowest match
/// may be false positives (a borrow runs on), so callers trust only the lowest:
/// `index + mask.trailingZeroBitCount >> 3` on a little-endian machine (x86-64, arm64).
enum SWAR {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// `byte` in every byte of a word.
    @inline(__always)
    static func broadcast(_ byte: UInt8) -> UInt64 { ones &* UInt64(byte) }

    /// Bytes of `word` that are zero.
    @inline(__always)
    static func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }

    /// Bytes of `word` equal to the byte `pattern` broadcasts.
    @inline(__always)
    static func bytes(_ word: UInt64, equalTo pattern: UInt64) -> UInt64 { zeroBytes(word ^ pattern) }

    /// Bytes of `word` below `limit` (at most 0x80).
    @inline(__always)
    static func bytes(_ word: UInt64, below limit: UInt8) -> UInt64 { (word &- broadcast(limit)) & ~word & highs }

    /// How many bytes of `bytes` equal `byte`: exact, unlike the tests above, so it can count.
    static func count(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let pattern = broadcast(byte), lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        var count = 0
        var index = 0
        let base = UnsafeRawPointer(bytes.baseAddress!)
        while index + 8 <= bytes.count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
            // The high bit of each byte that is zero, and of no other: no borrow runs between bytes.
            count += (~(((word & lows) &+ lows) | word | lows)).nonzeroBitCount
            index += 8
        }
        while index < bytes.count {
            if bytes[index] == byte { count += 1 }
            index += 1
        }
        return count
    }
}
