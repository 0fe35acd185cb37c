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
    /// The token as a remote service wrote it, to send back verbatim: Azure's tokens are opaque
    /// (`1!40!cGFy…`), and only a service's own is sure to resume where it meant. Nil for a token
    /// made from keys, or from a local account.
    package var serviceText: ServiceText?

    package struct ServiceText: Hashable, Sendable {
        package var nextPartitionKey: String
        package var nextRowKey: String?

        package init(nextPartitionKey: String, nextRowKey: String?) {
            self.nextPartitionKey = nextPartitionKey
            self.nextRowKey = nextRowKey
        }
    }

    package init(partitionKey: String, rowKey: String, serviceText: ServiceText? = nil) {
        self.partitionKey = partitionKey
        self.rowKey = rowKey
        self.serviceText = serviceText
    }
}

/// One page of a query, in key order, and where the next starts (nil at the end).
///
/// A page may hold fewer entities than asked for while more follow (Azure stops at 1,000 entities,
/// at five seconds and at partition-server boundaries): only `next == nil` means the end.
package struct QueryPage<Element: Sendable>: Sendable {
    package var entities: [Element]
    package var next: ContinuationToken?

    package init(entities: [Element], next: ContinuationToken?) {
        self.entities = entities
        self.next = next
    }
}

/// A page of decoded entities.
package typealias EntityPage = QueryPage<Entity>
