/// A hash table from 64-bit fingerprints to record numbers: open addressing, linear probing,
/// 12 bytes a slot, at most 3/4 full.
///
/// The fingerprints are already well mixed (random GUID bits, or a multiply-xorshift of the event's
/// fields), so the slot is taken from their top bits directly: no per-lookup hashing, unlike
/// `Dictionary`, which would hash every key again with SipHash.
struct FingerprintTable: Sendable {
    private var keys: [UInt64]
    /// Record number + 1; 0 marks an empty slot.
    private var values: [UInt32]
    private var shift: UInt64
    private(set) var count = 0

    init(capacityBits: Int = 16) {
        keys = [UInt64](repeating: 0, count: 1 << capacityBits)
        values = [UInt32](repeating: 0, count: 1 << capacityBits)
        shift = UInt64(64 - capacityBits)
    }

    /// The number stored for `fingerprint`, or stores `number` and returns nil.
    mutating func existing(_ fingerprint: UInt64, orInsert number: UInt32) -> UInt32? {
        if (count + 1) * 4 > keys.count * 3 { grow() }
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while true {
            let value = values[slot]
            if value == 0 {
                keys[slot] = fingerprint
                values[slot] = number &+ 1
                count += 1
                return nil
            }
            if keys[slot] == fingerprint { return value &- 1 }
            slot = (slot + 1) & mask
        }
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        let bits = 64 - Int(shift) + 1
        keys = [UInt64](repeating: 0, count: 1 << bits)
        values = [UInt32](repeating: 0, count: 1 << bits)
        shift -= 1
        let mask = keys.count - 1
        for index in oldKeys.indices where oldValues[index] != 0 {
            var slot = Int(truncatingIfNeeded: (oldKeys[index] &* 0x9E37_79B9_7F4A_7C15) >> shift)
            while values[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[index]
            values[slot] = oldValues[index]
        }
    }
}
