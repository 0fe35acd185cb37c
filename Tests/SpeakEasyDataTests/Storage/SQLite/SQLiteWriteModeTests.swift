import CSQLite
import SpeakEasyData
import SpeakEasySQLite
import TestSupport
import Testing

/// The write modes as the protocol defines them are in the conformance suite
/// (`Storage/Conformance/ConformanceWrites.swift`); these are the local account's own.
@Suite("SQLite storage account: write modes")
struct SQLiteWriteModeTests {
    static let original = Entity(
        partitionKey: "p",
        rowKey: "r",
        properties: [Property("A", .int32(1)), Property("B", .string("old"))]
    )

    /// More than the protocol promises (one transaction group), which callers may not rely on.
    @Test("a write call is one transaction: a failed insert writes nothing of it, in any partition, and names the keys")
    func insertDuplicate() async throws {
        try await withStore { store, _ in
            try await store.write([Self.original], table: "t", mode: .insert)
            let fresh = [Entity(partitionKey: "o", rowKey: "fresh"), Entity(partitionKey: "q", rowKey: "fresh")]
            let error = await #expect(throws: StorageError.self) {
                try await store.write(fresh + [Self.original], table: "t", mode: .insert)
            }
            #expect(error?.reason == .alreadyExists)
            #expect(error?.message.contains("PartitionKey 'p', RowKey 'r'") == true, "\(String(describing: error))")
            #expect(try await store.entityCounts(table: "t") == ["p": 1])
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
