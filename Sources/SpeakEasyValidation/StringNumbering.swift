import SpeakEasyCore

/// Strings numbered in order of first appearance (event names, locations, speaker keys): a value
/// seen a million times is stored once, and records hold 4-byte numbers.
///
/// Looked up three times an event, so it hashes the UTF-8 bytes a word at a time with a
/// multiply-mix (a few ns) instead of `Dictionary`'s SipHash, and verifies by comparing the strings.
struct StringNumbering: Sendable {
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

    /// A 64-bit hash of the UTF-8 bytes (``ByteHash``).
    static func hash(_ text: String) -> UInt64 {
        var text = text
        return text.withUTF8 { ByteHash.hash(UnsafeRawBufferPointer($0)) }
    }
}
