import SpeakEasyData
import SpeakEasySQLite
import Testing

/// `storedQuery` (what `serve` answers a query on the keys from) copies each row's bytes into one
/// buffer and, when the statement's conditions are the whole filter, does not check the filter again.
/// Its pages must hold what the decoding `query` gives, key for key.
@Suite("SQLite storage account: stored pages")
struct SQLiteStoredPageTests {
    static let partitions = ["a", "b", "é", "e\u{301}", "z"]

    static func entities() -> [Entity] {
        partitions.flatMap { partition in
            (1...4).map {
                Entity(partitionKey: partition, rowKey: "r\($0)", properties: [Property("N", .int32(Int32($0)))])
            }
        }
    }

    /// Every entity's keys and properties, page after page of `limit`, by the stored or the decoding query.
    static func read(
        _ store: SQLiteStorageAccount,
        _ query: EntityQuery,
        stored: Bool,
        limit: Int = 3
    ) async throws -> [String] {
        var read: [String] = []
        var from: ContinuationToken?
        repeat {
            if stored {
                let page = try await store.storedQuery(table: "t", query, from: from, limit: limit)
                read += try page.entities.map {
                    let entity = try $0.encoded.decoded()
                    return "\(entity.partitionKey)/\(entity.rowKey) \(entity.properties)"
                }
                from = page.next
            } else {
                let page = try await store.query(table: "t", query, from: from, limit: limit)
                read += page.entities.map { "\($0.partitionKey)/\($0.rowKey) \($0.properties)" }
                from = page.next
            }
        } while from != nil
        return read
    }

    @Test(
        "a stored page holds what the decoding query gives, for filters the statement covers and others",
        arguments: [
            "PartitionKey eq 'b'",
            "PartitionKey eq 'b' and RowKey ge 'r2' and RowKey lt 'r4'",
            "RowKey ne 'r3'",
            "PartitionKey gt 'a' and RowKey eq 'r1'",
            "PartitionKey eq 'e\u{301}'",
            "PartitionKey eq 'é' and PartitionKey eq 'e\u{301}'",
            "PartitionKey eq 'b' or RowKey eq 'r2'",
            "not (RowKey eq 'r2')",
        ]
    )
    func storedAsDecoded(filter: String) async throws {
        try await withStore { store, _ in
            try await store.write(Self.entities(), table: "t", mode: .insert)
            let query = EntityQuery(filter: try EntityFilter(parsing: filter))
            let decoded = try await Self.read(store, query, stored: false)
            #expect(!decoded.isEmpty || filter.contains("and PartitionKey"), "the case reads nothing")
            #expect(try await Self.read(store, query, stored: true) == decoded)
        }
    }

    /// `==` of Strings holds for canonically equivalent spellings; the store compares bytes. A filter
    /// naming the other spelling of the query's partition matches nothing there.
    @Test("a filter on another spelling of the query's partition is a condition, not the partition")
    func canonicallyEquivalentPartition() async throws {
        try await withStore { store, _ in
            try await store.write(Self.entities(), table: "t", mode: .insert)
            let query = EntityQuery(partition: "é", filter: try EntityFilter(parsing: "PartitionKey eq 'e\u{301}'"))
            #expect(try await Self.read(store, query, stored: false).isEmpty)
            #expect(try await Self.read(store, query, stored: true).isEmpty)
            #expect(SQLiteScan.statementCoversFilter(query.filter))
        }
    }

    @Test("a key that is not UTF-8 in the file is repaired as the decoding query repairs it")
    func damagedKey() async throws {
        try await withStore { store, path in
            try await store.write(Self.entities(), table: "t", mode: .insert)
            try RawSQLite(path: path).execute(
                "UPDATE entities SET row_key = CAST(X'72FF39' AS TEXT) WHERE partition_key = 'b' AND row_key = 'r4'"
            )
            let query = EntityQuery(partition: "b")
            let stored = try await Self.read(store, query, stored: true)
            #expect(stored.last?.hasPrefix("b/r\u{FFFD}9 ") == true, "\(stored)")
            #expect(stored == (try await Self.read(store, query, stored: false)))
        }
    }

    @Test("a page drops entities by their keys, and gives back what was put in")
    func pageOfEntities() throws {
        let entities = Self.entities().map {
            StoredEntity(EncodedEntity($0), timestamp: nil, etag: $0.rowKey == "r2" ? nil : "W/\"\($0.rowKey)\"")
        }
        var page = StoredEntityPage(entities: entities, next: nil)
        #expect(page.count == 20)
        page.removeAll { partitionKey, rowKey in partitionKey != "b" || rowKey == "r3" }
        #expect(
            page.entities.map(\.encoded)
                == entities.filter { $0.encoded.partitionKey == "b" && $0.encoded.rowKey != "r3" }.map(\.encoded)
        )
        #expect(page.entities.map(\.etag) == ["W/\"r1\"", nil, "W/\"r4\""])
    }
}
