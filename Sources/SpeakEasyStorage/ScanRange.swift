import SpeakEasyModel

/// A stretch of a table in key order that one query reads on its own: the rows of one partition
/// between two RowKeys, or whole partitions between two PartitionKeys. Consecutive ranges follow each
/// other in key order with nothing between them, so reading them in order reads what one query over
/// them all would (``ParallelScan``).
///
/// A range is a filter of the plainest kind, `PartitionKey eq 'P' and RowKey ge 'a' and RowKey lt
/// 'b'`: Azure serves it as a range query, and the local account seeks to it in its key index.
package struct ScanRange: Hashable, Sendable {
    package enum Keys: Hashable, Sendable {
        /// Rows of one partition, bounded by RowKey.
        case rows(partition: String)
        /// Whole partitions, bounded by PartitionKey.
        case partitions
    }

    /// Where a range starts: at a key, or just after it.
    package struct Lower: Hashable, Sendable {
        package var key: String
        package var inclusive: Bool

        package init(_ key: String, inclusive: Bool) {
            self.key = key
            self.inclusive = inclusive
        }
    }

    package var keys: Keys
    /// Nil: from the start of the partition, or of the table.
    package var lower: Lower?
    /// Where the range ends, exclusive; nil: at the end of the partition, or of the table.
    package var upper: String?
    /// Where a read of the range resumes, when a service stopped a page before any entity (a page
    /// may be empty while more follow) and its token is all there is to go on.
    package var resume: ContinuationToken?
    /// Whether this is what a cut piece left after a full page: how much it holds says how far the
    /// cut overshot, not how densely the keys lie (``ParallelScan``).
    package var isLeftover = false

    package init(_ keys: Keys, lower: Lower? = nil, upper: String? = nil) {
        self.keys = keys
        self.lower = lower
        self.upper = upper
    }

    /// The range of a whole query: its partition's rows, or every partition.
    package static func whole(_ query: EntityQuery) -> ScanRange {
        ScanRange(query.partition.map { .rows(partition: $0) } ?? .partitions)
    }

    /// The name of the key this range is bounded by.
    private var boundedKey: String {
        switch keys {
        case .rows: "RowKey"
        case .partitions: "PartitionKey"
        }
    }

    /// `query` narrowed to this range: its filter and the range's conditions must both hold.
    package func narrowing(_ query: EntityQuery) -> EntityQuery {
        var conditions: [EntityFilter?] = []
        if let lower { conditions.append(.key(boundedKey, lower.inclusive ? .ge : .gt, lower.key)) }
        if let upper { conditions.append(.key(boundedKey, .lt, upper)) }
        var narrowed = query
        if case .rows(let partition) = keys { narrowed.partition = partition }
        narrowed.filter = EntityFilter.all(of: conditions + [query.filter])
        return narrowed
    }

    /// The two ranges this one is when cut at `boundary`, which lies inside it.
    package func cut(at boundary: String) -> (ScanRange, ScanRange) {
        var before = self
        before.upper = boundary
        before.isLeftover = false
        var after = self
        after.lower = Lower(boundary, inclusive: true)
        return (before, after)
    }

    /// What remains to read after a page of this range that ended at the entity of these keys (more
    /// follow): the rest of its partition, then, for a range of partitions, the partitions after it.
    package func remainder(afterPartitionKey partitionKey: String, rowKey: String) -> [ScanRange] {
        switch keys {
        case .rows:
            var rest = self
            rest.lower = Lower(rowKey, inclusive: false)
            rest.resume = nil
            rest.isLeftover = upper != nil
            return [rest]
        case .partitions:
            var partitions = self
            partitions.lower = Lower(partitionKey, inclusive: false)
            partitions.resume = nil
            partitions.isLeftover = upper != nil
            return [
                ScanRange(.rows(partition: partitionKey), lower: Lower(rowKey, inclusive: false)),
                partitions,
            ]
        }
    }
}
