package import SpeakEasyModel

/// What a query asks of a table: which partition, which entities, which properties.
package struct EntityQuery: Hashable, Sendable {
    /// Only this partition (Azure: `PartitionKey eq '…'`, which a backend can seek to).
    package var partition: String?
    /// Only entities the filter matches (Azure's `$filter`).
    package var filter: EntityFilter?
    /// Only these properties (Azure's `$select`); the keys are always there. Nil: all.
    package var select: [String]?

    package init(partition: String? = nil, filter: EntityFilter? = nil, select: [String]? = nil) {
        self.partition = partition
        self.filter = filter
        self.select = select
    }

    package static let all = EntityQuery()
}

/// Where the next page of a query starts: the keys of its first entity, as Azure's
/// `x-ms-continuation-NextPartitionKey` and `-NextRowKey` say.
package struct ContinuationToken: Hashable, Sendable {
    package var partitionKey: String
    package var rowKey: String

    package init(partitionKey: String, rowKey: String) {
        self.partitionKey = partitionKey
        self.rowKey = rowKey
    }
}

/// One page of a query, in key order, and where the next starts (nil at the end).
///
/// A page may hold fewer entities than asked for while more follow (Azure stops at 1,000 entities,
/// at five seconds and at partition-server boundaries): only `next == nil` means the end.
package struct EntityPage: Sendable {
    package var entities: [Entity]
    package var next: ContinuationToken?

    package init(entities: [Entity], next: ContinuationToken?) {
        self.entities = entities
        self.next = next
    }
}

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

/// A page of ``StoredEntity``s and where the next page starts.
package struct StoredEntityPage: Sendable {
    package var entities: [StoredEntity]
    package var next: ContinuationToken?

    package init(entities: [StoredEntity], next: ContinuationToken?) {
        self.entities = entities
        self.next = next
    }
}
