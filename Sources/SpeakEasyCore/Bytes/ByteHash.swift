/// The multiply-mix hashing of hot paths, in one place: a quick 64-bit hash of bytes (``hash(_:)``),
/// the odd constant every table multiplies by (``golden``), and SplitMix64's finaliser (``mix(_:)``).
///
/// For the hash tables of hot paths where `Hasher`'s SipHash costs too much. Not for anything an
/// adversary chooses to collide: every table using it verifies a match by comparing the bytes.
///
/// `@inlinable` in a `@usableFromInline` enum (see ``SWAR``): the validator's tables and the
/// readers, in other modules, hash every event's strings.
@usableFromInline package enum ByteHash {
    /// 2⁶⁴ divided by the golden ratio, made odd: a multiply by it spreads a key's bits over the high
    /// bits (Fibonacci hashing), and SplitMix64 steps its state by it.
    @inlinable package static var golden: UInt64 { 0x9E37_79B9_7F4A_7C15 }

    /// SplitMix64's finaliser (Steele, Lea & Flood 2014): every bit of `z` reaches every bit of the result.
    @inlinable @inline(__always)
    package static func mix(_ z: UInt64) -> UInt64 {
        var z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A hash of `raw`, eight bytes at a time with a multiply-mix (a few ns for a short name).
    @inlinable
    package static func hash(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var hash = UInt64(raw.count) &* golden
        var offset = 0
        while offset + 8 <= raw.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 29
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < raw.count {
            tail |= UInt64(raw[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        return hash ^ hash >> 31
    }
}

extension UInt64 {
    /// The bits rotated left by `count` (1 to 63): the hashes' and fingerprints' cheap mix.
    @inlinable @inline(__always)
    package func rotated(by count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
