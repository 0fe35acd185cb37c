import SpeakEasyData
import SpeakEasySQLite
import TestSupport
import Testing

/// What the account promises of entities (every Edm type, keys, Timestamp and ETag) is in the
/// conformance suite (`Storage/Conformance/ConformanceEntities.swift`); this is the file's part.
@Suite("SQLite storage account: entities survive exactly")
struct SQLiteRoundTripTests {
    @Test("data survives closing and reopening the store, also read-only, properties in their order")
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
}
