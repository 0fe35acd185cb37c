/// A quick 64-bit hash of bytes, eight at a time with a multiply-mix (a few ns for a short name),
/// for the hash tables of hot paths where `Hasher`'s SipHash costs too much. Not for anything an
/// adversary chooses to collide: every table using it verifies a match by comparing the bytes.
enum ByteHash {
    static func hash(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        var hash = UInt64(raw.count) &* 0x9E37_79B9_7F4A_7C15
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
