internal import Crypto

/// An order-independent SHA-256 digest of a set of entities' content (keys and properties).
///
/// Each entity contributes SHA-256(PartitionKey ‖ 0x00 ‖ RowKey ‖ 0x00 ‖ properties as minimal-metadata
/// JSON); the digests are added as 256-bit little-endian integers modulo 2^256. Any reader can thus
/// recompute it in any order — a store scan, a file, a stream — and compare with the manifest.
package struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    package init() {}

    package mutating func add(_ entity: Entity) {
        add(EncodedEntity(entity))
    }

    package mutating func add(_ entity: EncodedEntity) {
        var hasher = SHA256()
        var separator: UInt8 = 0
        for key in [entity.partitionKey, entity.rowKey] {
            var key = key
            key.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            withUnsafeBytes(of: &separator) { hasher.update(bufferPointer: $0) }
        }
        entity.properties.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        let digest = hasher.finalize()
        digest.withUnsafeBytes { bytes in
            var carry = false
            func add(_ word: inout UInt64, _ index: Int) {
                let value = bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self).littleEndian
                let (sum1, overflow1) = word.addingReportingOverflow(value)
                let (sum2, overflow2) = sum1.addingReportingOverflow(carry ? 1 : 0)
                word = sum2
                carry = overflow1 || overflow2
            }
            add(&words.0, 0)
            add(&words.1, 1)
            add(&words.2, 2)
            add(&words.3, 3)
        }
    }

    /// `sha256-sum:` and 64 hex digits (least significant word first, as the bytes are added).
    package var description: String {
        var hex = "sha256-sum:"
        for word in [words.0, words.1, words.2, words.3] {
            let digits = String(word.littleEndian.byteSwapped, radix: 16)
            hex += String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex
    }

    package static func == (lhs: ContentHash, rhs: ContentHash) -> Bool { lhs.description == rhs.description }
    package func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
