/// The keys a table SAS reaches: from (`spk`, `srk`) to (`epk`, `erk`), both ends inclusive, an
/// absent row key leaving its partition's end open and an absent partition key the table's.
package struct TableKeyRange: Sendable, Equatable {
    package var startPartitionKey: String?
    package var startRowKey: String?
    package var endPartitionKey: String?
    package var endRowKey: String?

    package init(
        startPartitionKey: String? = nil,
        startRowKey: String? = nil,
        endPartitionKey: String? = nil,
        endRowKey: String? = nil
    ) {
        self.startPartitionKey = startPartitionKey
        self.startRowKey = startRowKey
        self.endPartitionKey = endPartitionKey
        self.endRowKey = endRowKey
    }

    /// Whether the range limits anything.
    package var isUnbounded: Bool {
        startPartitionKey == nil && startRowKey == nil && endPartitionKey == nil && endRowKey == nil
    }

    /// Whether an entity's keys are within the range. Keys compare as the Table service orders them:
    /// by UTF-16 code units.
    package func contains(partitionKey: String, rowKey: String) -> Bool {
        if let start = startPartitionKey {
            let order = Self.compare(partitionKey, start)
            if order < 0 { return false }
            if order == 0, let startRow = startRowKey, Self.compare(rowKey, startRow) < 0 { return false }
        }
        if let end = endPartitionKey {
            let order = Self.compare(partitionKey, end)
            if order > 0 { return false }
            if order == 0, let endRow = endRowKey, Self.compare(rowKey, endRow) > 0 { return false }
        }
        return true
    }

    private static func compare(_ lhs: String, _ rhs: String) -> Int {
        if lhs == rhs { return 0 }
        return lhs.utf16.lexicographicallyPrecedes(rhs.utf16) ? -1 : 1
    }
}
