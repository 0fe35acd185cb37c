import SpeakEasyCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reuses the `String` made earlier for the same bytes in the same column.
///
/// Data repeats: event names, places, speakers' keys and names, often descriptions. A shared String
/// costs a reference count where a new one costs an allocation, a copy and a UTF-8 check — and, when
/// export hands entities to its formatting thread, a free on the wrong thread. Each column keeps a
/// small direct-mapped table; a column whose values rarely repeat (RowKeys) stops being looked up
/// after a while, so unique data pays almost nothing.
struct StringInterner {
    /// Shorter strings live inside the `String` value itself: nothing to save.
    static let minimumLength = 16
    static let maximumLength = 4096
    private static let slotCount = 512
    /// Lookups after which a column that hit less than a quarter of the time is given up.
    private static let trialLookups = 2048

    private struct Slot {
        var bytes: [UInt8]
        var string: String
    }

    private struct Column {
        /// Made at the column's second value, with the first in it: a reader that decodes one object
        /// (a request's entity, a point read) makes no table, whose slots cost more to make and free
        /// than decoding the object (a quarter of serve's CPU in batch inserts).
        var slots: [Slot?] = []
        var first: Slot?
        var lookups = 0
        var hits = 0
        var enabled = true
    }

    private var columns: [Column] = []

    /// The String for `bytes` in `column`: a cached one with the same bytes, else what `make` returns
    /// (which must be the String of exactly these bytes).
    mutating func string<E: Error>(
        _ bytes: UnsafeRawBufferPointer,
        column: Int,
        make: () throws(E) -> String
    ) throws(E) -> String {
        guard bytes.count >= Self.minimumLength, bytes.count <= Self.maximumLength else { return try make() }
        while columns.count <= column { columns.append(Column()) }
        guard columns[column].enabled else { return try make() }
        columns[column].lookups += 1
        if columns[column].slots.isEmpty {
            guard let first = columns[column].first else {
                let string = try make()
                columns[column].first = Slot(bytes: Array(bytes), string: string)
                return string
            }
            columns[column].slots = Array(repeating: nil, count: Self.slotCount)
            columns[column].slots[first.bytes.withUnsafeBytes(Self.slot)] = first
            columns[column].first = nil
        }
        let slot = Self.slot(bytes)
        if let cached = columns[column].slots[slot], cached.bytes.count == bytes.count,
            cached.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 })
        {
            columns[column].hits += 1
            return cached.string
        }
        let string = try make()
        columns[column].slots[slot] = Slot(bytes: Array(bytes), string: string)
        if columns[column].lookups == Self.trialLookups, columns[column].hits * 4 < Self.trialLookups {
            columns[column] = Column(slots: [], lookups: 0, hits: 0, enabled: false)
        }
        return string
    }

    private static func slot(_ bytes: UnsafeRawBufferPointer) -> Int {
        Int(truncatingIfNeeded: slotHash(bytes)) & (slotCount - 1)
    }

    /// A long value's slot comes from its length and its first and last 32 bytes: enough to tell
    /// repeated values apart in a small table (a match is verified byte for byte anyway), and a 1 KB
    /// description costs no more to look up than a name.
    private static func slotHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        guard bytes.count > 64 else { return ByteHash.hash(bytes) }
        let head = ByteHash.hash(UnsafeRawBufferPointer(rebasing: bytes[..<32]))
        let tail = ByteHash.hash(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - 32)...]))
        return head ^ tail.rotated(by: 17) ^ UInt64(bytes.count) &* ByteHash.golden
    }
}
