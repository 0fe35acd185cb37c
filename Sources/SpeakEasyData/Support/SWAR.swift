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
}
