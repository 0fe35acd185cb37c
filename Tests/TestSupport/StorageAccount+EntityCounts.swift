package import SpeakEasyData

extension StorageAccount {
    /// Entities per PartitionKey, from a scan of the table's digests: for tests, since Azure can count
    /// only by reading every entity. A missing table has none.
    package func entityCounts(table: String) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        try await forEachDigest(table: table) { counts[$0.partitionKey, default: 0] += 1 }
        return counts
    }
}
