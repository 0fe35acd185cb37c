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

/// Strings numbered in order of first appearance (event names, locations, speaker keys): a value
/// seen a million times is stored once, and records hold 4-byte numbers.
///
/// Looked up three times an event, so it hashes the UTF-8 bytes a word at a time with a
/// multiply-mix (a few ns) instead of `Dictionary`'s SipHash, and verifies by comparing the strings.
struct StringInterner: Sendable {
    /// Open addressing: string number + 1, 0 for an empty slot.
    private var slots = [UInt32](repeating: 0, count: 1 << 8)
    private var hashes: [UInt64] = []
    private(set) var strings: [String] = []

    mutating func number(_ text: String) -> UInt32 {
        let hash = Self.hash(text)
        if (strings.count + 1) * 4 > slots.count * 3 { grow() }
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let slot = slots[index]
            if slot == 0 { break }
            let number = Int(slot - 1)
            if hashes[number] == hash, strings[number] == text { return UInt32(number) }
            index = (index + 1) & mask
        }
        let number = UInt32(strings.count)
        slots[index] = number + 1
        hashes.append(hash)
        strings.append(text)
        return number
    }

    subscript(number: UInt32) -> String { strings[Int(number)] }

    private mutating func grow() {
        slots = [UInt32](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for number in hashes.indices {
            var index = Int(truncatingIfNeeded: hashes[number]) & mask
            while slots[index] != 0 { index = (index + 1) & mask }
            slots[index] = UInt32(number + 1)
        }
    }

    /// A 64-bit hash of the UTF-8 bytes, eight at a time.
    static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { bytes -> UInt64 in
            var hash = UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15
            let raw = UnsafeRawBufferPointer(bytes)
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
}
