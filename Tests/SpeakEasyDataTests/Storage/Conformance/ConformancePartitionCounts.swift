import SpeakEasyData
import Testing

/// `partitionCounts`: a table's partitions in key order with their entity counts, a page at a time,
/// as `serve`'s browser view lists them. The local account counts in its key index, any other account
/// by reading digests: both must give the same pages.
@Suite("Storage conformance: partition counts")
struct ConformancePartitionCounts {
    /// Every partition of ``ConformanceDigests/entities``, in key order (UTF-8 bytes), with its count.
    static let expected = [
        PartitionCount(partitionKey: "", entities: 1), PartitionCount(partitionKey: "O'Brien", entities: 1),
        PartitionCount(partitionKey: "p", entities: 2), PartitionCount(partitionKey: "q0", entities: 5),
        PartitionCount(partitionKey: "q1", entities: 5), PartitionCount(partitionKey: "q2", entities: 5),
        PartitionCount(partitionKey: "q3", entities: 5),
    ]

    @Test(
        "the pages, joined, are every partition once with its count; the last says there is no next",
        arguments: ConformanceBackend.all,
        [1, 2, 7, 100]
    )
    func pages(backend: ConformanceBackend, limit: Int) async throws {
        try await backend.withAccount { account in
            try await account.write(ConformanceDigests.entities, table: Conformance.table, mode: .insert)
            var counts: [PartitionCount] = []
            var after: String?
            var pages = 0
            repeat {
                let page = try await account.partitionCounts(table: Conformance.table, after: after, limit: limit)
                #expect(page.partitions.count <= limit)
                #expect(page.next == nil || page.next == page.partitions.last?.partitionKey)
                counts += page.partitions
                after = page.next
                pages += 1
            } while after != nil && pages <= Self.expected.count
            #expect(counts == Self.expected)
            #expect(pages == (Self.expected.count + limit - 1) / limit)
        }
    }

    @Test("an empty or missing table has no partitions", arguments: ConformanceBackend.all)
    func none(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.createTableIfNotExists(Conformance.table)
            let empty = try await account.partitionCounts(table: Conformance.table, after: nil, limit: 10)
            #expect(empty == PartitionCountPage(partitions: [], next: nil))
            let missing = try await account.partitionCounts(table: "nothere", after: nil, limit: 10)
            #expect(missing.partitions.isEmpty && missing.next == nil)
        }
    }
}
