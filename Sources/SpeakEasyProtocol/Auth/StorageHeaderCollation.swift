/// The order in which the Blob service sorts `x-ms-*` header names for Shared Key.
///
/// Not plain ordinal order: the service sorts with a collation where `-` is ignored on the first
/// pass (so `x-ms-meta-a_b` and `x-ms-meta-ab-c` order as the service expects). This is the
/// two-level weight table azure-storage-blob 12.31.1 ships (`_storage_header_sort` in its
/// `_shared/authentication.py`) to emulate the service; for names that differ in more than `-`
/// and `_` it agrees with ordinal order.
package enum StorageHeaderCollation {
    // Level-0 weights of the ASCII bytes (0 = ignorable on this level).
    private static let level0: [UInt16] = [
        0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
        0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
        0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x71c, 0x0, 0x71f, 0x721, 0x723, 0x725,
        0x0, 0x0, 0x0, 0x72d, 0x803, 0x0, 0x0, 0x733, 0x0, 0xd03, 0xd1a, 0xd1c, 0xd1e,
        0xd20, 0xd22, 0xd24, 0xd26, 0xd28, 0xd2a, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0,
        0xe02, 0xe09, 0xe0a, 0xe1a, 0xe21, 0xe23, 0xe25, 0xe2c, 0xe32, 0xe35, 0xe36, 0xe48, 0xe51,
        0xe70, 0xe7c, 0xe7e, 0xe89, 0xe8a, 0xe91, 0xe99, 0xe9f, 0xea2, 0xea4, 0xea6, 0xea7, 0xea9,
        0x0, 0x0, 0x0, 0x743, 0x744, 0x748, 0xe02, 0xe09, 0xe0a, 0xe1a, 0xe21, 0xe23, 0xe25,
        0xe2c, 0xe32, 0xe35, 0xe36, 0xe48, 0xe51, 0xe70, 0xe7c, 0xe7e, 0xe89, 0xe8a, 0xe91, 0xe99,
        0xe9f, 0xea2, 0xea4, 0xea6, 0xea7, 0xea9, 0x0, 0x74c, 0x0, 0x750, 0x0,
    ]

    // Level-1 weights: only `'` and `-` count here.
    private static func level1(_ byte: UInt8) -> UInt16 {
        switch byte {
        case 0x27: 0x8012
        case 0x2D: 0x8212
        default: 0
        }
    }

    private static func weight(_ level: Int, _ byte: UInt8) -> UInt16 {
        // Bytes outside ASCII cannot be in a header name; they are ignored rather than trapping.
        guard byte < 128 else { return 0 }
        return level == 0 ? level0[Int(byte)] : level1(byte)
    }

    /// Whether `lhs` sorts before `rhs`.
    package static func precedes(_ lhs: String, _ rhs: String) -> Bool { compare(Array(lhs.utf8), Array(rhs.utf8)) < 0 }

    /// -1, 0 or 1, as the SDK's `compare`.
    static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        var level = 0
        var i = 0
        var j = 0
        while level < 2 {
            if level == 1, i != j { return i > j ? -1 : 1 }
            let w1: UInt16 = i < lhs.count ? weight(level, lhs[i]) : 1
            let w2: UInt16 = j < rhs.count ? weight(level, rhs[j]) : 1
            if w1 == 1, w2 == 1 {
                i = 0
                j = 0
                level += 1
            } else if w1 == w2 {
                i += 1
                j += 1
            } else if w1 == 0 {
                i += 1
            } else if w2 == 0 {
                j += 1
            } else {
                return w1 < w2 ? -1 : 1
            }
        }
        return 0
    }
}
