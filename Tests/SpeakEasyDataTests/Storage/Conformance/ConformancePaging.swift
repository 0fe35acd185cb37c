import SpeakEasyData
import Testing

/// Queries page by page: every page in key order, a continuation naming where the next starts, and
/// only a nil continuation meaning the end (a page may be short while more follow).
@Suite("Storage conformance: paging")
struct ConformancePaging {
    /// 2,500 entities in three partitions, in shuffled order.
    static func manyEntities() -> [Entity] {
        var random = SplitMix64(seed: 2_500)
        var entities = (0..<2_500).map { index in
            Entity(
                partitionKey: ["Events", "speakers", "zeta"][index % 3],
                rowKey: random.guid().description,
                properties: [Property("N", .int32(Int32(index)))]
            )
        }
        entities.shuffle(using: &random)
        return entities
    }

    /// Three partitions of two entities each: pages of two end exactly at partition edges.
    static let sixEntities = ["a", "b", "c"].flatMap { partition in
        (1...2).map {
            Entity(partitionKey: partition, rowKey: "\(partition)\($0)", properties: [Property("N", .int32(Int32($0)))])
        }
    }

    /// Checks that each page's continuation names the first entity the walk had not yet returned (for
    /// queries without a filter, where the next entity in key order is the next page's first).
    func expectContinuationsNameNextEntity(_ walked: QueryWalk, sourceLocation: SourceLocation = #_sourceLocation) {
        var returned = 0
        for page in walked.pages {
            returned += page.entities.count
            guard let next = page.next, returned < walked.entities.count else { continue }
            #expect(EntityKey(next) == walked.entities[returned].key, sourceLocation: sourceLocation)
        }
    }

    @Test(
        "pages return every entity exactly once, in key order",
        arguments: ConformanceBackend.all,
        [1_000, 500, 333, 2_500, 5_000]
    )
    func paging(backend: ConformanceBackend, limit: Int) async throws {
        try await backend.withAccount { account in
            let written = Self.manyEntities()
            try await account.write(written, table: Conformance.table, mode: .insert)
            let walked = try await walk(account, table: Conformance.table, limit: limit)
            #expect(walked.entities.count == 2_500)
            #expect(walked.entities.map(\.canonical) == inKeyOrder(written))
            expectContinuationsNameNextEntity(walked)
        }
    }

    @Test(
        "small limits walk the table page by page, each continuation naming the next entity",
        arguments: ConformanceBackend.all,
        [1, 2, 3, 4, 6, 7]
    )
    func smallLimits(backend: ConformanceBackend, limit: Int) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.sixEntities.reversed(), table: Conformance.table, mode: .insert)
            let walked = try await walk(account, table: Conformance.table, limit: limit)
            #expect(walked.entities.map(\.canonical) == Self.sixEntities)
            expectContinuationsNameNextEntity(walked)
        }
    }

    @Test(
        "a page ending at a partition's last entity continues at the next partition's first",
        arguments: ConformanceBackend.all
    )
    func pageEndsAtPartitionEdge(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.sixEntities, table: Conformance.table, mode: .insert)
            let first = try await account.query(table: Conformance.table, .all, from: nil, limit: 2)
            let partitionA = [EntityKey("a", "a1"), EntityKey("a", "a2")]
            #expect(first.entities.map(\.key) == Array(partitionA.prefix(first.entities.count)))
            if first.entities.count == 2 { #expect(first.next.map(EntityKey.init) == EntityKey("b", "b1")) }
            let second = try await account.query(
                table: Conformance.table,
                .all,
                from: ContinuationToken(partitionKey: "b", rowKey: "b1"),
                limit: 2
            )
            #expect(second.entities.map(\.key).allSatisfy { $0.partitionKey == "b" })
            #expect(second.entities.first?.key == EntityKey("b", "b1"))
        }
    }

    @Test(
        "a partition query stays inside its partition, whatever the limit",
        arguments: ConformanceBackend.all,
        [1, 2, 3]
    )
    func partitionEdges(backend: ConformanceBackend, limit: Int) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.sixEntities, table: Conformance.table, mode: .insert)
            let walked = try await walk(account, table: Conformance.table, EntityQuery(partition: "b"), limit: limit)
            #expect(walked.entities.map(\.key) == [EntityKey("b", "b1"), EntityKey("b", "b2")])
            expectContinuationsNameNextEntity(walked)
        }
    }

    @Test(
        "a partition query returns that partition only, in row-key order; an unknown partition is empty",
        arguments: ConformanceBackend.all
    )
    func partitionFilter(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let written = Self.manyEntities()
            try await account.write(written, table: Conformance.table, mode: .insert)
            let speakers = try await walk(
                account,
                table: Conformance.table,
                EntityQuery(partition: "speakers"),
                limit: 100
            )
            #expect(speakers.entities.map(\.canonical) == inKeyOrder(written.filter { $0.partitionKey == "speakers" }))
            #expect(
                try await walk(account, table: Conformance.table, EntityQuery(partition: "nobody"), limit: 100).entities
                    .isEmpty
            )
        }
    }

    @Test("an empty table gives one empty page and no continuation", arguments: ConformanceBackend.all)
    func emptyTable(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let page = try await account.query(table: Conformance.table, .all, from: nil, limit: 10)
            #expect(page.entities.isEmpty)
            #expect(page.next == nil)
        }
    }

    @Test(
        "a continuation token names where the next page starts, across partitions and empty row keys",
        arguments: ConformanceBackend.all
    )
    func resumeAcrossPartitions(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let entities = [("o", "z"), ("p", "a"), ("p", "b"), ("p", "c"), ("q", "")].map {
                Entity(partitionKey: $0.0, rowKey: $0.1)
            }
            try await account.write(entities, table: Conformance.table, mode: .insert)
            let walked = try await walk(account, table: Conformance.table, limit: 2)
            #expect(walked.entities.map(\.key) == entities.map(\.key))
            expectContinuationsNameNextEntity(walked)
            let first = try await account.query(table: Conformance.table, .all, from: nil, limit: 1)
            #expect(first.entities.map(\.key) == [EntityKey("o", "z")])
            #expect(first.next.map(EntityKey.init) == EntityKey("p", "a"))
        }
    }

    @Test(
        "a continuation made from any keys resumes at the first entity at or after them",
        arguments: ConformanceBackend.all
    )
    func resumeFromAnyKeys(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.sixEntities, table: Conformance.table, mode: .insert)
            let cases: [(ContinuationToken, [String])] = [
                (ContinuationToken(partitionKey: "b", rowKey: "b1"), ["b1", "b2", "c1", "c2"]),
                (ContinuationToken(partitionKey: "b", rowKey: "b15"), ["b2", "c1", "c2"]),
                (ContinuationToken(partitionKey: "b", rowKey: "z"), ["c1", "c2"]),
                (ContinuationToken(partitionKey: "bb", rowKey: ""), ["c1", "c2"]),
                (ContinuationToken(partitionKey: "", rowKey: ""), ["a1", "a2", "b1", "b2", "c1", "c2"]),
            ]
            for (token, expected) in cases {
                var rowKeys: [String] = []
                var from: ContinuationToken? = token
                while let resume = from {
                    let page = try await account.query(table: Conformance.table, .all, from: resume, limit: 10)
                    rowKeys += page.entities.map(\.rowKey)
                    from = page.next
                }
                #expect(rowKeys == expected, "from \(EntityKey(token))")
            }
        }
    }

    @Test(
        "a continuation is a key position: entities written after it was given are found when they sort after it",
        arguments: ConformanceBackend.all
    )
    func writesBetweenPages(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.sixEntities, table: Conformance.table, mode: .insert)
            let first = try await account.query(table: Conformance.table, .all, from: nil, limit: 3)
            #expect(first.entities.map(\.rowKey) == ["a1", "a2", "b1"])
            let next = try #require(first.next)
            try await account.write(
                [Entity(partitionKey: "a", rowKey: "a3"), Entity(partitionKey: "b", rowKey: "b3")],
                table: Conformance.table,
                mode: .insert
            )
            try await account.deleteEntity(table: Conformance.table, partitionKey: "c", rowKey: "c1", ifMatch: "*")
            var rowKeys: [String] = []
            var from: ContinuationToken? = next
            while let resume = from {
                let page = try await account.query(table: Conformance.table, .all, from: resume, limit: 3)
                rowKeys += page.entities.map(\.rowKey)
                from = page.next
            }
            #expect(rowKeys == ["b2", "b3", "c2"])
        }
    }

    /// A filter may leave a page short, or empty, while more follow: a walk follows the continuations.
    @Test(
        "filters, select and paging together give every match once, in key order, with the selected properties",
        arguments: ConformanceBackend.all,
        [1, 2, 7, 1_000]
    )
    func filterSelectAndPaging(backend: ConformanceBackend, limit: Int) async throws {
        try await backend.withAccount { account in
            let entities = (0..<60).map { (index: Int) -> Entity in
                Entity(
                    partitionKey: "p\(index % 3)",
                    rowKey: index < 10 ? "r0\(index)" : "r\(index)",
                    properties: [
                        Property("N", .int32(Int32(index))), Property("Odd", .boolean(index % 2 == 1)),
                        Property("Text", .string("#\(index)")),
                    ]
                )
            }
            try await account.write(entities, table: Conformance.table, mode: .insert)
            let filter = EntityFilter.and(
                .and(.comparison(property: "N", .ge, .int32(10)), .comparison(property: "N", .lt, .int32(50))),
                .property("Odd")
            )
            func expected(partition: String?) -> [Entity] {
                let matches = entities.filter { (entity: Entity) -> Bool in
                    guard case .int32(let n) = entity["N"] else { return false }
                    let inPartition = partition == nil || entity.partitionKey == partition
                    return (10..<50).contains(n) && n % 2 == 1 && inPartition
                }
                return inKeyOrder(matches).map {
                    Entity(partitionKey: $0.partitionKey, rowKey: $0.rowKey, properties: [Property("N", $0["N"]!)])
                }
            }
            let all = try await walk(
                account,
                table: Conformance.table,
                EntityQuery(filter: filter, select: ["N"]),
                limit: limit
            )
            #expect(all.entities.map(\.canonical) == expected(partition: nil))
            #expect(all.entities.count == 20)
            let one = try await walk(
                account,
                table: Conformance.table,
                EntityQuery(partition: "p1", filter: filter, select: ["N"]),
                limit: limit
            )
            #expect(one.entities.map(\.canonical) == expected(partition: "p1"))
            #expect(one.entities.count == 7)
        }
    }
}
