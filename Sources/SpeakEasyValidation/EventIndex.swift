import SpeakEasyCore

/// What the one pass remembers of each event: where it was, and what duplicate detection compares.
///
/// 48 bytes an event (1,000,000 events: 48 MB), plus two ``FingerprintTable``s of 16 bytes a slot.
struct EventRecord: Sendable {
    var key: CompactKey
    var ticks: Int64
    var name: UInt32
    var location: UInt32
    var speaker: UInt32
    var line: UInt32
    var source: UInt16
    /// Whether name, location, speaker and date were all present (only then does it take part in
    /// `duplicates.events`).
    var isComplete: Bool
    /// Whether `ticks` is an EventDate, and `speaker` a SpeakerKey (0 is a key's number too): what
    /// the report's overview counts. They fit in the padding after `isComplete`.
    var hasDate = true
    var hasSpeaker = true

    /// The identity `duplicates.events` compares: name, location, speaker and date.
    func sameEvent(as other: EventRecord) -> Bool {
        ticks == other.ticks && name == other.name && location == other.location && speaker == other.speaker
    }

    /// A 64-bit fingerprint of the identity (a multiply-xorshift mix; collisions are verified).
    var eventFingerprint: UInt64 {
        var h = UInt64(bitPattern: ticks) &* ByteHash.golden
        h ^= (UInt64(name) << 32 | UInt64(location)) &* 0xC2B2_AE3D_27D4_EB4F
        h = (h ^ h >> 31) &* 0x94D0_49BB_1331_11EB
        h ^= UInt64(speaker) &* 0xFF51_AFD7_ED55_8CCD
        return h ^ h >> 29
    }
}

/// Every event seen, and the two duplicate-detection sets over them.
///
/// Each set maps a 64-bit fingerprint to the number of the first record that had it. A fingerprint
/// match is verified against that record's exact fields (its 128-bit key, or its interned name,
/// location, speaker and ticks), so a collision can never make a false duplicate; keys whose
/// fingerprint collides with a different key's go to a small exact overflow table, so a collision
/// cannot hide a real duplicate either.
struct EventIndex: Sendable {
    /// Records in chunks of 64 Ki: growing never copies (or doubles) what is already stored.
    private var chunks: [[EventRecord]] = []
    private(set) var count = 0
    private var keys: FingerprintTable
    private var keyOverflow: [CompactKey: UInt32] = [:]
    private var events: FingerprintTable
    private var eventOverflow: [EventIdentity: UInt32] = [:]

    private static let chunkSize = 1 << 16

    /// An index sized for about `expected` events before its tables first grow.
    init(expected: Int = 0) {
        keys = FingerprintTable(expected: expected)
        events = FingerprintTable(expected: expected)
    }

    private struct EventIdentity: Hashable {
        var ticks: Int64
        var name: UInt32
        var location: UInt32
        var speaker: UInt32
    }

    /// Every record, in the order they were added.
    func forEach(_ body: (EventRecord) -> Void) {
        for chunk in chunks {
            for record in chunk { body(record) }
        }
    }

    subscript(number: UInt32) -> EventRecord {
        chunks[Int(number) >> 16][Int(number) & (Self.chunkSize - 1)]
    }

    /// Stores a record; returns its number, and the numbers of an earlier record with the same key
    /// and of an earlier event with the same identity.
    mutating func add(
        _ record: EventRecord,
        checkEvents: Bool
    ) -> (number: UInt32, sameKey: UInt32?, sameEvent: UInt32?) {
        let number = UInt32(count)
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(Self.chunkSize)
        }
        chunks[chunks.count - 1].append(record)
        count += 1

        var sameKey: UInt32?
        let keyPrint = record.key.fingerprint
        if let first = keys.existing(keyPrint, orInsert: number) {
            if self[first].key == record.key {
                sameKey = first
            } else if let other = keyOverflow[record.key] {
                sameKey = other
            } else {
                keyOverflow[record.key] = number
            }
        }

        var sameEvent: UInt32?
        if checkEvents, record.isComplete {
            let eventPrint = record.eventFingerprint
            if let first = events.existing(eventPrint, orInsert: number) {
                if self[first].sameEvent(as: record) {
                    sameEvent = first
                } else {
                    let identity = EventIdentity(
                        ticks: record.ticks,
                        name: record.name,
                        location: record.location,
                        speaker: record.speaker
                    )
                    if let other = eventOverflow[identity] {
                        sameEvent = other
                    } else {
                        eventOverflow[identity] = number
                    }
                }
            }
        }
        return (number, sameKey, sameEvent)
    }
}
