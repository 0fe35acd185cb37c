import SpeakEasyData
import SpeakEasySQLite
import Testing

/// Paging as the protocol defines it is in the conformance suite
/// (`Storage/Conformance/ConformancePaging.swift`); this is how the local account does it.
@Suite("SQLite storage account: paging")
struct SQLitePagingTests {
    /// Every page must read the key index in order from the resume point. A plan that sorts ("TEMP
    /// B-TREE") or scans would make a scan of a million entities quadratic.
    @Test(
        "each page query seeks on the key index and needs no sort",
        arguments: [(false, false), (false, true), (true, false), (true, true)]
    )
    func pageQueryPlans(partition: Bool, resuming: Bool) async throws {
        try await withStore { _, path in
            let raw = try RawSQLite(path: path)
            let plan = try raw.rows("EXPLAIN QUERY PLAN " + SQLiteScan.sql(partition: partition, resuming: resuming))
                .compactMap { $0.last ?? nil }
            #expect(plan.count == 1, "\(plan)")
            #expect(
                plan.allSatisfy { $0.contains("SEARCH entities USING INDEX sqlite_autoindex_entities_1") },
                "\(plan)"
            )
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }

    /// A filter that passes over more rows than a page's budget gets an empty page that goes on, and
    /// `matchesAny` (export's --partition check, seed's "holds data") reads on past it.
    @Test("an empty page that goes on is not the end: matchesAny reads past it")
    func matchesAnyPastEmptyPages() async throws {
        try await withStore { store, _ in
            let count = SQLiteScan.skipBudget + 5_000
            let entities = (0..<count).map { index in
                Entity(
                    partitionKey: "P",
                    rowKey: String(index + 100_000),
                    properties: [Property("N", .int32(Int32(index)))]
                )
            }
            try await store.write(entities, table: "t", mode: .insert)
            let last = EntityQuery(filter: .comparison(property: "N", .eq, .int32(Int32(count - 1))))
            let first = try await store.query(table: "t", last, from: nil, limit: 1)
            #expect(first.entities.isEmpty && first.next != nil, "the budget did not end the first page")
            #expect(try await store.matchesAny(table: "t", last))
            let none = EntityQuery(filter: .comparison(property: "N", .eq, .int32(-1)))
            #expect(try await !store.matchesAny(table: "t", none))
        }
    }

    /// Key conditions the index cannot seek on (a RowKey across partitions, `ne`) are a column of the
    /// row, not a condition of the WHERE: SQLite would pass over any number of rows in one step to
    /// find one that meets them, and a page must be able to stop (``SQLiteScan/skipBudget``). The
    /// plan stays one ordered search of the key index.
    @Test("key conditions the index cannot seek on are checked row by row, on the same ordered search")
    func checkedConditionsPlan() async throws {
        try await withStore { _, path in
            let sql = SQLiteScan.sql(
                partition: false,
                resuming: true,
                keyConditions: ["partition_key >= ?5"],
                checkedConditions: ["row_key = ?6", "partition_key <> ?7"]
            )
            #expect(sql.contains("CASE WHEN (row_key = ?6 AND partition_key <> ?7) THEN properties END"), "\(sql)")
            let plan = try RawSQLite(path: path).rows("EXPLAIN QUERY PLAN " + sql).compactMap { $0.last ?? nil }
            #expect(plan.count == 1, "\(plan)")
            #expect(
                plan.allSatisfy { $0.contains("SEARCH entities USING INDEX sqlite_autoindex_entities_1") },
                "\(plan)"
            )
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }

    /// Over HTTP a partition query is only a filter (`$filter=PartitionKey eq 'Events'`): a page resumed
    /// inside the partition must seek as a partition query does. Comparing row values instead sorted
    /// the rest of the table on every page (seconds a page in a partition of a million).
    @Test("a filter on one PartitionKey pages as a partition query; a token outside it still resumes right")
    func filterNamesThePartition() async throws {
        let query = EntityQuery(filter: try EntityFilter(parsing: "N ge 1 and PartitionKey eq 'b'"))
        #expect(SQLiteScan.partition(of: query, resumingAt: nil) == "b")
        #expect(SQLiteScan.partition(of: query, resumingAt: ContinuationToken(partitionKey: "b", rowKey: "b2")) == "b")
        #expect(SQLiteScan.partition(of: query, resumingAt: ContinuationToken(partitionKey: "a", rowKey: "z")) == nil)
        #expect(
            SQLiteScan.partition(
                of: EntityQuery(filter: try EntityFilter(parsing: "PartitionKey eq 'b' or N ge 1")),
                resumingAt: nil
            ) == nil
        )
        try await withStore { store, path in
            let sql = SQLiteScan.sql(partition: true, resuming: true, keyConditions: ["partition_key = ?5"])
            let plan = try RawSQLite(path: path).rows("EXPLAIN QUERY PLAN " + sql).compactMap { $0.last ?? nil }
            #expect(plan.count == 1 && !plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
            let entities = ["a", "b", "c"].flatMap { partition in
                (1...3).map {
                    Entity(
                        partitionKey: partition,
                        rowKey: "\(partition)\($0)",
                        properties: [Property("N", .int32(Int32($0)))]
                    )
                }
            }
            try await store.write(entities, table: "t", mode: .insert)
            let cases: [(ContinuationToken?, [String])] = [
                (nil, ["b1", "b2", "b3"]),
                (ContinuationToken(partitionKey: "b", rowKey: "b2"), ["b2", "b3"]),
                (ContinuationToken(partitionKey: "b", rowKey: "b25"), ["b3"]),
                (ContinuationToken(partitionKey: "a", rowKey: "z"), ["b1", "b2", "b3"]),
                (ContinuationToken(partitionKey: "c", rowKey: ""), []),
            ]
            for (token, expected) in cases {
                var rowKeys: [String] = []
                var from = token
                repeat {
                    let page = try await store.query(table: "t", query, from: from, limit: 2)
                    rowKeys += page.entities.map(\.rowKey)
                    from = page.next
                } while from != nil
                #expect(rowKeys == expected, "from \(token.map { "\($0.partitionKey)/\($0.rowKey)" } ?? "the start")")
            }
        }
    }
}
