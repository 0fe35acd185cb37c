/// Word-at-a-time byte tests (SWAR: SIMD within a register) for the scanners of long text fields.
///
/// Each returns a word with the high bit set in every byte that matches. Bits above the lowest match
/// may be false positives (a borrow runs on), so callers trust only the lowest:
/// `index + mask.trailingZeroBitCount >> 3` on a little-endian machine (x86-64, arm64).
package enum SWAR {
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
    ///
    /// Each word adds 1 to the byte lane of every match (no borrow runs between lanes in this test),
    /// and the lanes are summed every 255 words, before one could overflow: no population count,
    /// which x86-64's baseline lacks as an instruction.
    package static func count(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
        let pattern = broadcast(byte), lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F, evenLanes: UInt64 = 0x00FF_00FF_00FF_00FF
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            var lanes: UInt64 = 0
            let blockEnd = min(bytes.count - 8, index + 254 * 8)
            while index <= blockEnd {
                let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ pattern
                lanes &+= ~(((word & lows) &+ lows) | word | lows) >> 7
                index += 8
            }
            let pairs = (lanes & evenLanes) &+ ((lanes >> 8) & evenLanes)
            count += Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) >> 48)
        }
        while index < bytes.count {
            if bytes[index] == byte { count += 1 }
            index += 1
        }
        return count
    }
}
