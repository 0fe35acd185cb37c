package import SpeakEasyModel

/// An entity as the store keeps it: keys, Timestamp, ETag, and the properties still encoded, for a
/// reply that copies them through (``StorageAccount/storedQuery(table:_:from:limit:)``).
package struct StoredEntity: Sendable {
    package var encoded: EncodedEntity
    package var timestamp: EdmDateTime?
    package var etag: String?

    package init(_ encoded: EncodedEntity, timestamp: EdmDateTime?, etag: String?) {
        self.encoded = encoded
        self.timestamp = timestamp
        self.etag = etag
    }
}

/// A page of entities as stored (``StoredEntity``), all in one buffer, and where the next starts.
///
/// `serve` answers a client reading a partition from pages like this, a thousand entities each. Kept
/// as a ``StoredEntity`` per row, a page cost four allocations a row (RowKey, ETag, properties,
/// the Timestamp's text) and as many frees and reference counts: a fifth of serve's CPU at
/// `export --parallel 16`, where the bytes themselves are copied once. Here a row is its bytes
/// appended to the page's, and where they lie.
package struct StoredEntityPage: Sendable {
    /// Where one entity's fields lie in ``bytes``.
    package struct Entry: Sendable {
        package var partitionKey: Range<Int>
        package var rowKey: Range<Int>
        /// Nil when the store keeps none: the Timestamp's weak ETag stands for it.
        package var etag: Range<Int>?
        /// The properties as a minimal-metadata JSON object (``EncodedEntity/properties``).
        package var properties: Range<Int>
        package var timestamp: EdmDateTime?
        /// The Timestamp as the store spells it, when it parsed: a reply spells it again from its
        /// digits (``EdmDateTime/appendLexicalForm(ofParsed:to:trimmed:)``).
        package var timestampText: Range<Int>?
    }

    /// Every entity's fields, one after another.
    package private(set) var bytes: [UInt8] = []
    package private(set) var entries: [Entry] = []
    package var next: ContinuationToken?

    /// An empty page, with room for `bytes` bytes of fields.
    package init(reservingBytes bytes: Int = 0, next: ContinuationToken? = nil) {
        self.bytes.reserveCapacity(bytes)
        self.next = next
    }

    package init(entities: [StoredEntity], next: ContinuationToken?) {
        self.init(next: next)
        for entity in entities { append(entity) }
    }

    package var count: Int { entries.count }

    /// Appends an entity from its fields' bytes (UTF-8 keys, ETag and Timestamp), valid only during
    /// the call. Text that is not UTF-8 (a damaged store) is repaired as `String(decoding:as:)`
    /// repairs it; a Timestamp that does not parse is none.
    package mutating func append(
        partitionKey: UnsafeRawBufferPointer,
        rowKey: UnsafeRawBufferPointer,
        etag: UnsafeRawBufferPointer?,
        properties: UnsafeRawBufferPointer,
        timestamp: UnsafeRawBufferPointer
    ) {
        let time = try? EdmDateTime.parse(timestamp)
        let entry = Entry(
            partitionKey: appendText(partitionKey),
            rowKey: appendText(rowKey),
            etag: etag.map { appendText($0) },
            properties: appendBytes(properties),
            timestamp: time,
            timestampText: time == nil ? nil : appendBytes(timestamp)
        )
        entries.append(entry)
    }

    package mutating func append(_ entity: StoredEntity) {
        let entry = Entry(
            partitionKey: appendBytes(entity.encoded.partitionKey.utf8),
            rowKey: appendBytes(entity.encoded.rowKey.utf8),
            etag: entity.etag.map { appendBytes($0.utf8) },
            properties: appendBytes(entity.encoded.properties),
            timestamp: entity.timestamp,
            timestampText: nil
        )
        entries.append(entry)
    }

    private mutating func appendText(_ text: UnsafeRawBufferPointer) -> Range<Int> {
        guard text.contains(where: { $0 >= 0x80 }) else { return appendBytes(text) }
        return appendBytes(String(decoding: text, as: UTF8.self).utf8)
    }

    private mutating func appendBytes(_ field: some Collection<UInt8>) -> Range<Int> {
        let start = bytes.count
        bytes.append(contentsOf: field)
        return start..<bytes.count
    }

    /// The text of a field of ``bytes``.
    package func text(_ range: Range<Int>) -> String { Self.text(range, of: bytes) }

    private static func text(_ range: Range<Int>, of bytes: [UInt8]) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// Drops the entities `leftOut` names by their keys (their bytes stay).
    package mutating func removeAll(where leftOut: (_ partitionKey: String, _ rowKey: String) -> Bool) {
        let bytes = self.bytes
        entries.removeAll { leftOut(Self.text($0.partitionKey, of: bytes), Self.text($0.rowKey, of: bytes)) }
    }

    /// The page's entities, each copied out: for tests, and callers that want values.
    package var entities: [StoredEntity] {
        entries.map { entry in
            StoredEntity(
                EncodedEntity(
                    partitionKey: text(entry.partitionKey),
                    rowKey: text(entry.rowKey),
                    properties: Array(bytes[entry.properties])
                ),
                timestamp: entry.timestamp,
                etag: entry.etag.map(text)
            )
        }
    }
}
