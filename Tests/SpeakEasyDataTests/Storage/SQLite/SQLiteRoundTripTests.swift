import SpeakEasyData
import TestFixtures
import Testing

@Suite("SQLite storage account: entities survive exactly")
struct SQLiteRoundTripTests {
    @Test("an entity holding every Edm type comes back with the same types and values")
    func everyType() async throws {
        try await withStore { store, _ in
            let entity = Entity(partitionKey: "p", rowKey: "every-type", properties: SampleProperties.everyType)
            try await store.createTableIfNotExists("t")
            try await store.write([entity], table: "t", mode: .insert)
            let read = try #require(try await store.entity(table: "t", partitionKey: "p", rowKey: "every-type"))
            #expect(read.content == entity)
            #expect(read.properties == SampleProperties.everyType)
            #expect(zip(read.properties, entity.properties).allSatisfy { $0.value.type == $1.value.type })
            let scanned = try await allEntities(store, table: "t")
            #expect(scanned.map(\.content) == [entity])
        }
    }

    @Test("the store sets Timestamp and an Azure-style weak ETag")
    func timestampAndETag() async throws {
        try await withStore { store, _ in
            let before = EdmDateTime.now()
            try await store.write([Entity(partitionKey: "p", rowKey: "r", properties: [Property("A", .int32(1))])], table: "t", mode: .insert)
            let read = try #require(try await store.entity(table: "t", partitionKey: "p", rowKey: "r"))
            let timestamp = try #require(read.timestamp)
            #expect(timestamp >= before.startOfDay)
            let etag = try #require(read.etag)
            #expect(etag.hasPrefix("W/\"datetime'") && etag.hasSuffix("'\""))
            #expect(etag.contains(timestamp.description.replacing(":", with: "%3A")))
        }
    }

    @Test("keys and property names with quotes, unicode and SQL metacharacters are kept")
    func awkwardKeys() async throws {
        try await withStore { store, _ in
            let entities = [
                Entity(partitionKey: "O'Brien", rowKey: "\"; DROP TABLE entities; --", properties: [Property("名前", .string("😀"))]),
                Entity(partitionKey: "Müller", rowKey: "a b%_", properties: [Property("we\"ird", .int64(-1))]),
                Entity(partitionKey: "p", rowKey: "no-properties"),
            ]
            try await store.write(entities, table: "t", mode: .insert)
            for entity in entities {
                let read = try await store.entity(table: "t", partitionKey: entity.partitionKey, rowKey: entity.rowKey)
                #expect(read?.content == entity)
            }
            #expect(try await store.entity(table: "t", partitionKey: "O'Brien", rowKey: "missing") == nil)
            #expect(try await store.entity(table: "other", partitionKey: "p", rowKey: "no-properties") == nil)
        }
    }

    @Test("data survives closing and reopening the store, also read-only")
    func reopen() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            let entity = Entity(partitionKey: "p", rowKey: "r", properties: SampleProperties.everyType)
            do {
                let store = try SQLiteStorageAccount(path: path)
                try await store.createTableIfNotExists("t")
                try await store.write([entity], table: "t", mode: .insert)
            }
            let reopened = try SQLiteStorageAccount(path: path)
            #expect(try await reopened.entity(table: "t", partitionKey: "p", rowKey: "r")?.content == entity)
            let readOnly = try SQLiteStorageAccount(path: path, readOnly: true)
            #expect(try await readOnly.entity(table: "t", partitionKey: "p", rowKey: "r")?.content == entity)
            #expect(try await readOnly.entityCounts(table: "t") == ["p": 1])
        }
    }

    /// Azure allows empty PartitionKey and RowKey; a scan must not skip the entity keyed ("", "").
    @Test("an entity with empty PartitionKey and RowKey is found by a scan")
    func emptyKeys() async throws {
        try await withStore { store, _ in
            let entities = [Entity(partitionKey: "", rowKey: "", properties: [Property("A", .int32(1))]), Entity(partitionKey: "", rowKey: "a")]
            try await store.write(entities, table: "t", mode: .insert)
            #expect(try await store.entity(table: "t", partitionKey: "", rowKey: "")?.content == entities[0])
            #expect(try await store.entityCounts(table: "t") == ["": 2])
            let scanned = try await allEntities(store, table: "t")
            #expect(scanned.map(\.content) == entities)
        }
    }
}
