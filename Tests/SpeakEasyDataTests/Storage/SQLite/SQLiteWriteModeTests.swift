import CSQLite
import SpeakEasyData
import Testing

@Suite("SQLite storage account: write modes")
struct SQLiteWriteModeTests {
    static let original = Entity(partitionKey: "p", rowKey: "r", properties: [Property("A", .int32(1)), Property("B", .string("old"))])

    @Test("insert refuses an existing entity and writes nothing of the batch")
    func insertDuplicate() async throws {
        try await withStore { store, _ in
            try await store.write([Self.original], table: "t", mode: .insert)
            let fresh = Entity(partitionKey: "p", rowKey: "fresh")
            let error = await #expect(throws: StorageError.self) {
                try await store.write([fresh, Self.original], table: "t", mode: .insert)
            }
            #expect(error?.reason == .alreadyExists)
            #expect(error?.message.contains("PartitionKey 'p', RowKey 'r'") == true, "\(String(describing: error))")
            #expect(try await store.entity(table: "t", partitionKey: "p", rowKey: "fresh") == nil, "the batch is one transaction")
            #expect(try await store.entityCounts(table: "t") == ["p": 1])
        }
    }

    @Test("insert refuses a key repeated inside one batch")
    func insertDuplicateInBatch() async throws {
        try await withStore { store, _ in
            await #expect(throws: StorageError.self) {
                try await store.write([Self.original, Entity(partitionKey: "q", rowKey: "r"), Self.original], table: "t", mode: .insert)
            }
            let counts = try await store.entityCounts(table: "t")
            #expect(counts.isEmpty)
        }
    }

    @Test("insertOrReplace replaces all properties of an existing entity")
    func insertOrReplace() async throws {
        try await withStore { store, _ in
            try await store.write([Self.original], table: "t", mode: .insert)
            let replacement = Entity(partitionKey: "p", rowKey: "r", properties: [Property("B", .string("new")), Property("C", .double(.nan))])
            try await store.write([replacement, Entity(partitionKey: "p", rowKey: "s")], table: "t", mode: .insertOrReplace)
            #expect(try await store.entity(table: "t", partitionKey: "p", rowKey: "r")?.content == replacement)
        }
    }

    @Test("insertOrMerge keeps old properties, replaces changed ones, adds new ones")
    func insertOrMerge() async throws {
        try await withStore { store, _ in
            try await store.write([Self.original], table: "t", mode: .insert)
            let update = Entity(partitionKey: "p", rowKey: "r", properties: [Property("B", .string("new")), Property("C", .int64(.max))])
            try await store.write([update], table: "t", mode: .insertOrMerge)
            let merged = try await store.entity(table: "t", partitionKey: "p", rowKey: "r")
            #expect(merged?.properties == [Property("A", .int32(1)), Property("B", .string("new")), Property("C", .int64(.max))])
        }
    }

    @Test("tables are independent")
    func tablesIndependent() async throws {
        try await withStore { store, _ in
            try await store.write([Self.original], table: "one", mode: .insert)
            try await store.write([Self.original], table: "two", mode: .insert)
            #expect(try await store.entityCounts(table: "one") == ["p": 1])
            try await store.deleteAllEntities(table: "one")
            #expect(try await store.entityCounts(table: "one").isEmpty)
            #expect(try await store.entityCounts(table: "two") == ["p": 1])
        }
    }

    @Test("entityCounts counts per partition; an unknown table has none")
    func entityCounts() async throws {
        try await withStore { store, _ in
            try await store.createTableIfNotExists("events")
            try await store.createTableIfNotExists("events")
            var entities: [Entity] = []
            for index in 0..<8 { entities.append(Entity(partitionKey: "speakers", rowKey: "s\(index)")) }
            for index in 0..<100 { entities.append(Entity(partitionKey: "Events", rowKey: "e\(index)")) }
            try await store.write(entities, table: "events", mode: .insert)
            #expect(try await store.entityCounts(table: "events") == ["speakers": 8, "Events": 100])
            #expect(try await store.entityCounts(table: "nothing").isEmpty)
        }
    }
}
