import SpeakEasyData
import Testing

@Suite("SQLite storage account: paging")
struct SQLitePagingTests {
    /// 2,500 entities in three partitions, written in shuffled order.
    static func entities() -> [Entity] {
        var random = SplitMix64(seed: 2_500)
        var entities = (0..<2_500).map { index in
            Entity(partitionKey: ["Events", "speakers", "zeta"][index % 3], rowKey: random.guid().description, properties: [Property("N", .int32(Int32(index)))])
        }
        entities.shuffle(using: &random)
        return entities
    }

    static func keyOrder(_ a: Entity, _ b: Entity) -> Bool {
        if a.partitionKey != b.partitionKey { return Array(a.partitionKey.utf8).lexicographicallyPrecedes(b.partitionKey.utf8) }
        return Array(a.rowKey.utf8).lexicographicallyPrecedes(b.rowKey.utf8)
    }

    @Test("pages return every entity exactly once, in key order", arguments: [1_000, 500, 333, 2_500, 5_000])
    func paging(limit: Int) async throws {
        try await withStore { store, _ in
            let written = Self.entities()
            try await store.write(written, table: "t", mode: .insert)
            var read: [Entity] = []
            var after: ContinuationToken?
            var pages = 0
            repeat {
                let page = try await store.entities(table: "t", partition: nil, from: after, limit: limit)
                #expect(page.entities.count <= limit)
                // The token names the first entity of the next page, as Azure's Next keys do.
                if let next = page.next, let last = page.entities.last {
                    #expect((last.partitionKey, last.rowKey) < (next.partitionKey, next.rowKey))
                }
                read += page.entities
                after = page.next
                pages += 1
            } while after != nil && pages < 100
            #expect(read.count == 2_500)
            #expect(Set(read.map { $0.partitionKey + "/" + $0.rowKey }).count == 2_500)
            #expect(read.map(\.content) == written.sorted(by: Self.keyOrder))
        }
    }

    @Test("a partition filter returns that partition only, in row-key order")
    func partitionFilter() async throws {
        try await withStore { store, _ in
            let written = Self.entities()
            try await store.write(written, table: "t", mode: .insert)
            let speakers = try await allEntities(store, table: "t", partition: "speakers", pageSize: 100)
            let expected = written.filter { $0.partitionKey == "speakers" }.sorted(by: Self.keyOrder)
            #expect(speakers.map(\.content) == expected)
            #expect(try await allEntities(store, table: "t", partition: "nobody").isEmpty)
        }
    }

    @Test("an empty table gives one empty page and no continuation")
    func emptyTable() async throws {
        try await withStore { store, _ in
            let page = try await store.entities(table: "t", partition: nil, from: nil, limit: 10)
            #expect(page.entities.isEmpty)
            #expect(page.next == nil)
        }
    }

    @Test("a continuation token names where the next page starts, across partitions")
    func resumeAfterKey() async throws {
        try await withStore { store, _ in
            let entities = [("o", "z"), ("p", "a"), ("p", "b"), ("p", "c"), ("q", "")].map { Entity(partitionKey: $0.0, rowKey: $0.1) }
            try await store.write(entities, table: "t", mode: .insert)
            let first = try await store.entities(table: "t", partition: nil, from: nil, limit: 1)
            #expect(first.entities.map(\.rowKey) == ["z"])
            let token = try #require(first.next)
            #expect(token.partitionKey == "p" && token.rowKey == "a")
            let second = try await store.entities(table: "t", partition: nil, from: token, limit: 2)
            #expect(second.entities.map { $0.partitionKey + $0.rowKey } == ["pa", "pb"])
            let third = try await store.entities(table: "t", partition: nil, from: second.next, limit: 2)
            #expect(third.entities.map { $0.partitionKey + $0.rowKey } == ["pc", "q"])
            #expect(third.next == nil, "the last page says it is the last")
        }
    }

    /// Every page must read the key index in order from the resume point. A plan that sorts ("TEMP
    /// B-TREE") or scans would make a scan of a million entities quadratic.
    @Test("each page query seeks on the key index and needs no sort", arguments: [(false, false), (false, true), (true, false), (true, true)])
    func pageQueryPlans(partition: Bool, resuming: Bool) async throws {
        try await withStore { _, path in
            let raw = try RawSQLite(path: path)
            let plan = try raw.rows("EXPLAIN QUERY PLAN " + SQLiteScan.sql(partition: partition, resuming: resuming)).compactMap { $0.last ?? nil }
            #expect(plan.count == 1, "\(plan)")
            #expect(plan.allSatisfy { $0.contains("SEARCH entities USING INDEX sqlite_autoindex_entities_1") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }
}
