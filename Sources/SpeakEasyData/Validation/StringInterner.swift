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
