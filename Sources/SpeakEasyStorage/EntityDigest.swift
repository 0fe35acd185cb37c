internal import Crypto
import SpeakEasyFormats
package import SpeakEasyModel

/// The SHA-256 of one entity's content in a canonical form, so that every backend, every file format
/// and every order of properties gives the same digest for the same content.
///
/// The form: PartitionKey, a 0 byte, RowKey, a 0 byte, then the properties as one minimal-metadata JSON
/// object (`{"A":1,"B@odata.type":"Edm.Int64","B":"2"}`) with the properties sorted by the UTF-8
/// bytes of their names and each value in its lexical form (DateTime with seven digits, Int64 as a
/// string; see ``JSONEntityWriter``). Timestamp and ETag are the store's, not content, and stay out.
package struct EntityDigest: Hashable, Sendable {
    /// The 32 bytes as four little-endian words, in order.
    package var words: (UInt64, UInt64, UInt64, UInt64)

    package init(partitionKey: String, rowKey: String, canonicalProperties: [UInt8]) {
        var hasher = SHA256()
        var separator: UInt8 = 0
        for key in [partitionKey, rowKey] {
            var key = key
            key.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            withUnsafeBytes(of: &separator) { hasher.update(bufferPointer: $0) }
        }
        canonicalProperties.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        let digest = hasher.finalize()
        words = digest.withUnsafeBytes { bytes in
            (
                bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self).littleEndian,
                bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian,
                bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian,
                bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self).littleEndian
            )
        }
    }

    package init(_ entity: Entity) {
        self.init(
            partitionKey: entity.partitionKey,
            rowKey: entity.rowKey,
            canonicalProperties: Self.canonicalProperties(entity.properties)
        )
    }

    /// The properties' canonical JSON object.
    package static func canonicalProperties(_ properties: [Property]) -> [UInt8] {
        var sorted = properties
        if !isSorted(properties) { sorted.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) } }
        var json: [UInt8] = []
        JSONEntityWriter.appendPropertiesObject(sorted, to: &json)
        return json
    }

    private static func isSorted(_ properties: [Property]) -> Bool {
        zip(properties, properties.dropFirst()).allSatisfy { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    package static func == (lhs: EntityDigest, rhs: EntityDigest) -> Bool { lhs.words == rhs.words }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
    }
}

/// An entity's keys and its content digest: what a backend reports of the entities it holds, so a
/// writer can tell new, changed and unchanged entities apart in one bulk read.
package struct KeyedDigest: Hashable, Sendable {
    package var partitionKey: String
    package var rowKey: String
    package var digest: EntityDigest

    package init(partitionKey: String, rowKey: String, digest: EntityDigest) {
        self.partitionKey = partitionKey
        self.rowKey = rowKey
        self.digest = digest
    }
}
