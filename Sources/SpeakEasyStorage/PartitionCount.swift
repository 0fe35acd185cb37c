/// A partition of a table and how many entities it holds: what a person browsing an account sees
/// first of a table (`serve`'s browser view).
package struct PartitionCount: Hashable, Sendable {
    package var partitionKey: String
    package var entities: Int

    package init(partitionKey: String, entities: Int) {
        self.partitionKey = partitionKey
        self.entities = entities
    }
}

/// A page of a table's partitions in key order; `next` is the last partition key of the page when
/// more follow (the next page starts after it), nil on the last page.
package struct PartitionCountPage: Hashable, Sendable {
    package var partitions: [PartitionCount]
    package var next: String?

    package init(partitions: [PartitionCount], next: String?) {
        self.partitions = partitions
        self.next = next
    }
}

extension StorageAccount {
    /// Counts by reading the keys of every entity from `after` on, for an account that cannot count
    /// (Azure has no count: this reads the table). The local account counts in its key index instead.
    package func partitionCounts(table: String, after: String?, limit: Int) async throws -> PartitionCountPage {
        var counts: [PartitionCount] = []
        var from = after.map { ContinuationToken(partitionKey: $0, rowKey: "") }
        repeat {
            let page = try await entityDigests(table: table, partition: nil, from: from, limit: 5000)
            for digest in page.digests where digest.partitionKey != after {
                if counts.last?.partitionKey == digest.partitionKey {
                    counts[counts.count - 1].entities += 1
                } else if counts.count == limit {
                    return PartitionCountPage(partitions: counts, next: counts.last?.partitionKey)
                } else {
                    counts.append(PartitionCount(partitionKey: digest.partitionKey, entities: 1))
                }
            }
            from = page.next
        } while from != nil
        return PartitionCountPage(partitions: counts, next: nil)
    }
}
