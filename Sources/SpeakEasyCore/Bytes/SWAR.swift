/// Word-at-a-time byte tests (SWAR: SIMD within a register) for the scanners of long text fields,
/// and the one word loop they all run (``firstMarked(in:from:to:_:)``).
///
/// Each test returns a word with the high bit set in every byte that matches. Bits above the lowest
/// match may be false positives (a borrow runs on), so callers trust only the lowest:
/// `index + mask.trailingZeroBitCount >> 3` on a little-endian machine (x86-64, arm64).
///
/// `@inlinable`: the readers and writers of every format, in other modules, run these in their
/// hottest loops; a call per word would cost more than the test. The enum is `@usableFromInline`
/// too: Swift 6.3 does not serialise the inlinable members of a plain `package` type, so without it
/// every test was a call from the other modules (twice the time of export and validate).
@usableFromInline package enum SWAR {
    /// 0x01 in every byte.
    @inlinable package static var ones: UInt64 { 0x0101_0101_0101_0101 }
    /// 0x80 in every byte: the high bits, set in every byte that is not ASCII.
    @inlinable package static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// `byte` in every byte of a word.
    @inlinable @inline(__always)
    package static func broadcast(_ byte: UInt8) -> UInt64 { ones &* UInt64(byte) }

    /// Bytes of `word` that are zero.
    @inlinable @inline(__always)
    package static func zeroBytes(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }

    /// Bytes of `word` equal to the byte `pattern` broadcasts.
    @inlinable @inline(__always)
    package static func bytes(_ word: UInt64, equalTo pattern: UInt64) -> UInt64 { zeroBytes(word ^ pattern) }

    /// Bytes of `word` equal to the byte `pattern` broadcasts, with no false positive above the lowest
    /// (two more instructions), for callers that count the matches.
    @inlinable @inline(__always)
    package static func exactBytes(_ word: UInt64, equalTo pattern: UInt64) -> UInt64 {
        let bits = word ^ pattern
        let lows = ~highs
        return ~((bits & lows) &+ lows | bits | lows)
    }

    /// How many bytes an exact mask (``exactBytes(_:equalTo:)``) marks: its high bits, summed into the
    /// top byte by one multiply. Baseline x86-64 has no `popcnt`, and `nonzeroBitCount` there is a
    /// dozen instructions.
    @inlinable @inline(__always)
    package static func countMarked(_ exactMask: UInt64) -> Int {
        Int(((exactMask >> 7) &* ones) >> 56)
    }

    /// Bytes of `word` below `limit` (at most 0x80).
    @inlinable @inline(__always)
    package static func bytes(_ word: UInt64, below limit: UInt8) -> UInt64 {
        (word &- broadcast(limit)) & ~word & highs
    }

    /// Where the first byte that `marks` marks lies in `raw[from..<end]`, eight bytes at a time: the
    /// lowest marked byte of the first word with one, else the first offset with fewer than eight
    /// bytes left, from which the caller goes on byte by byte (and finds the match there at once).
    ///
    /// `marks` sees every word read, whole: a few bytes past the match too, which matters only to
    /// callers that collect bits from the words (high bits, to tell ASCII).
    @inlinable @inline(__always)
    package static func firstMarked(
        in raw: UnsafeRawPointer,
        from: Int,
        to end: Int,
        _ marks: (UInt64) -> UInt64
    ) -> Int {
        var index = from
        while index + 8 <= end {
            let found = marks(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        return index
    }

    /// ``firstMarked(in:from:to:_:)`` sixteen bytes at a time: `vectors` marks the bytes of a SIMD
    /// vector (SSE2 on x86-64's baseline, NEON on arm64), and the first marked lane is read from the
    /// mask's two words, as a word's is. Stops at the first match, or at the first offset with fewer
    /// than sixteen bytes left, from which the caller goes on with the word loop.
    ///
    /// Over a 1 KB string with nothing to mark: 10.5 GB/s, against 2.9 GB/s for the word loop. The
    /// mask is not tested with `any(_:)`, which Swift 6.3 compiles to a call to the generic `min()`
    /// for every vector (and then runs at 3.5 GB/s).
    @inlinable @inline(__always)
    package static func firstMarked(
        in raw: UnsafeRawPointer,
        from: Int,
        to end: Int,
        vectors marks: (SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>>
    ) -> Int {
        var index = from
        while index + 16 <= end {
            let vector = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            let lanes = SIMD16<UInt8>.zero.replacing(with: 0xFF, where: marks(vector))
            let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
            if words[0] | words[1] != 0 {
                // Lane 0 is the low byte of the first word on a little-endian machine.
                let low = words[0] != 0
                return index + (low ? 0 : 8) + (low ? words[0] : words[1]).trailingZeroBitCount >> 3
            }
            index += 16
        }
        return index
    }

    /// ``firstMarked(in:from:to:_:)`` over the whole of `raw`, from `from` (which an empty `raw` returns).
    @inlinable @inline(__always)
    package static func firstMarked(in raw: UnsafeRawBufferPointer, from: Int, _ marks: (UInt64) -> UInt64) -> Int {
        guard let base = raw.baseAddress else { return from }
        return firstMarked(in: base, from: from, to: raw.count, marks)
    }

    /// The first byte at or after `from` that `marks` marks, or `raw.count`: words first, then the last
    /// few bytes one at a time, each as a word of its own whose lowest byte alone is read (which the
    /// tests above mark exactly: a borrow runs only upwards).
    @inlinable @inline(__always)
    package static func firstMarkedByte(
        in raw: UnsafeRawBufferPointer,
        from: Int,
        _ marks: (UInt64) -> UInt64
    ) -> Int {
        var index = firstMarked(in: raw, from: from, marks)
        while index < raw.count, marks(UInt64(raw[index])) & 0x80 == 0 { index += 1 }
        return index
    }

    /// ``firstMarkedByte(in:from:_:)`` sixteen bytes at a time while sixteen are left
    /// (``firstMarked(in:from:to:vectors:)``), then a word and bytes: `vectors` and `words` mark the
    /// same bytes.
    @inlinable @inline(__always)
    package static func firstMarkedByte(
        in raw: UnsafeRawBufferPointer,
        from: Int,
        vectors: (SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>>,
        words: (UInt64) -> UInt64
    ) -> Int {
        guard let base = raw.baseAddress else { return from }
        return firstMarkedByte(in: raw, from: firstMarked(in: base, from: from, to: raw.count, vectors: vectors), words)
    }

    /// The index of the first `byte` at or after `from` in `raw` (or `raw.count`), eight bytes at a time.
    @inlinable @inline(__always)
    package static func firstIndex(of byte: UInt8, in raw: UnsafeRawBufferPointer, from: Int) -> Int {
        let pattern = broadcast(byte)
        return firstMarkedByte(in: raw, from: from) { word in bytes(word, equalTo: pattern) }
    }

    /// How many bytes of `bytes` equal `byte`: exact, unlike the tests above, so it can count.
    @inlinable
    package static func count(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let pattern = SIMD16<UInt8>(repeating: byte)
        return count(in: bytes, vectors: { $0 .== pattern }, bytes: { $0 == byte })
    }

    /// How many UTF-8 characters `bytes` holds: its bytes but the continuation bytes (`10xxxxxx`).
    /// A character cut at either end counts where its first byte is. Columns are counted so, because
    /// libxml2 counts them so.
    @inlinable
    package static func characters(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let high = SIMD16<UInt8>(repeating: 0xC0)
        let continuation = SIMD16<UInt8>(repeating: 0x80)
        return bytes.count - count(in: bytes, vectors: { $0 & high .== continuation }, bytes: { $0 & 0xC0 == 0x80 })
    }

    /// How many bytes of `bytes` match, `vectors` marking them sixteen at a time in a SIMD vector
    /// (SSE2 on x86-64's baseline, NEON on arm64; twice the speed of words), `bytes` one at a time
    /// at the end. Each vector adds 1 to the lane of every match, and the lanes are summed every 255
    /// vectors, before one could overflow.
    @inlinable @inline(__always)
    package static func count(
        in bytes: UnsafeBufferPointer<UInt8>,
        vectors marks: (SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>>,
        bytes matches: (UInt8) -> Bool
    ) -> Int {
        guard let base = bytes.baseAddress.map(UnsafeRawPointer.init) else { return 0 }
        let one = SIMD16<UInt8>(repeating: 1)
        var count = 0
        var index = 0
        while index + 16 <= bytes.count {
            var lanes = SIMD16<UInt8>.zero
            let blockEnd = min(bytes.count - 16, index + 254 * 16)
            while index <= blockEnd {
                lanes &+= SIMD16<UInt8>.zero.replacing(
                    with: one,
                    where: marks(base.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self))
                )
                index += 16
            }
            count += Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
        }
        while index < bytes.count {
            if matches(bytes[index]) { count += 1 }
            index += 1
        }
        return count
    }
}
