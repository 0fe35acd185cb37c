/// A RowKey in 17 bytes: the 128 bits of a lower-case GUID, or the number of an interned string for
/// any other RowKey (rare, and warned about by `contract.rowkey-guid`).
///
/// Only the exact lower-case 8-4-4-4-12 form is kept as a GUID: Azure keys are case-sensitive, so
/// `ABC…` and `abc…` are different keys and must not meet in one GUID.
struct CompactKey: Hashable, Sendable {
    var high: UInt64
    var low: UInt64
    var isGUID: Bool

    /// A cheap 64-bit fingerprint: GUIDs are random already, interned numbers are distinct.
    var fingerprint: UInt64 { isGUID ? high ^ low.rotated(by: 29) : low | 1 << 63 }

    /// Parses the lower-case GUID form; nil for anything else.
    static func guid(_ text: String) -> CompactKey? {
        var text = text
        return text.withUTF8 { bytes -> CompactKey? in
            guard bytes.count == 36 else { return nil }
            var high: UInt64 = 0, low: UInt64 = 0
            var nibbles = 0
            for index in 0..<36 {
                let byte = bytes[index]
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let nibble: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte &- UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte &- UInt8(ascii: "a") &+ 10
                default: return nil
                }
                if nibbles < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
                nibbles += 1
            }
            return CompactKey(high: high, low: low, isGUID: true)
        }
    }
}

extension UInt64 {
    @inline(__always) func rotated(by count: UInt64) -> UInt64 { self << count | self >> (64 - count) }
}
