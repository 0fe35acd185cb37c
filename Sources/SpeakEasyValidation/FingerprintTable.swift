import SpeakEasyCore

/// A hash table from 64-bit fingerprints to record numbers: open addressing, linear probing,
/// 16 bytes a slot (fingerprint and number side by side: one cache miss a lookup), at most 3/4 full.
///
/// The fingerprints are already well mixed (random GUID bits, or a multiply-xorshift of the event's
/// fields), so the slot comes from one multiply: no per-lookup SipHash as `Dictionary` would do.
/// With a million events the table no longer fits any cache, so the cost of a lookup is the one
/// memory access it makes.
struct FingerprintTable: Sendable {
    private struct Slot {
        var fingerprint: UInt64
        /// Record number + 1; 0 marks an empty slot.
        var value: UInt32
    }

    private var slots: [Slot]
    private var shift: UInt64
    private(set) var count = 0

    /// A table for about `expected` entries before it first grows.
    init(expected: Int = 0) {
        var bits = 12
        while (1 << bits) * 3 < expected * 4 { bits += 1 }
        slots = [Slot](repeating: Slot(fingerprint: 0, value: 0), count: 1 << bits)
        shift = UInt64(64 - bits)
    }

    /// The number stored for `fingerprint`, or stores `number` and returns nil.
    mutating func existing(_ fingerprint: UInt64, orInsert number: UInt32) -> UInt32? {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        return slots.withUnsafeMutableBufferPointer { slots in
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: (fingerprint &* ByteHash.golden) >> shift)
            while true {
                let slot = slots[index]
                if slot.value == 0 {
                    slots[index] = Slot(fingerprint: fingerprint, value: number &+ 1)
                    count += 1
                    return nil
                }
                if slot.fingerprint == fingerprint { return slot.value &- 1 }
                index = (index + 1) & mask
            }
        }
    }

    private mutating func grow() {
        let old = slots
        shift -= 1
        slots = [Slot](repeating: Slot(fingerprint: 0, value: 0), count: old.count * 2)
        let mask = slots.count - 1
        for slot in old where slot.value != 0 {
            var index = Int(truncatingIfNeeded: (slot.fingerprint &* ByteHash.golden) >> shift)
            while slots[index].value != 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }
}
