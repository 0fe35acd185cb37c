import SpeakEasyData
import TestSupport
import Testing

@Suite("Storage conformance: entities survive exactly")
struct ConformanceEntities {
    @Test(
        "an entity holding every Edm type comes back with the same types and values",
        arguments: ConformanceBackend.all
    )
    func everyType(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let entity = Entity(partitionKey: "p", rowKey: "every-type", properties: SampleProperties.storable)
            try await account.write([entity], table: Conformance.table, mode: .insert)
            let read = try #require(
                try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "every-type")
            )
            #expect(read.canonical == entity.canonical)
            let types = Dictionary(uniqueKeysWithValues: read.properties.map { ($0.name, $0.value.type) })
            #expect(
                types == Dictionary(uniqueKeysWithValues: SampleProperties.storable.map { ($0.name, $0.value.type) })
            )
            #expect(try await allEntities(account, table: Conformance.table).map(\.canonical) == [entity.canonical])
        }
    }

    @Test("the account sets Timestamp and an Azure-style weak ETag naming it", arguments: ConformanceBackend.all)
    func timestampAndETag(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let before = EdmDateTime.now()
            try await account.write(
                [Entity(partitionKey: "p", rowKey: "r", properties: [Property("A", .int32(1))])],
                table: Conformance.table,
                mode: .insert
            )
            let read = try #require(try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r"))
            let timestamp = try #require(read.timestamp)
            #expect(timestamp >= before.startOfDay)
            let etag = try #require(read.etag)
            #expect(etag.hasPrefix("W/\"datetime'") && etag.hasSuffix("'\""), "\(etag)")
            // The time as Azure writes it: trailing zeros trimmed (a Timestamp ending in 0 ticks once in ten).
            #expect(etag == TableETag.weak(timestamp), "\(etag) names \(timestamp)")
        }
    }

    @Test(
        "a query returns each entity with the Timestamp and ETag a point read gives",
        arguments: ConformanceBackend.all
    )
    func queryCarriesETags(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(
                (0..<5).map { Entity(partitionKey: "p", rowKey: "r\($0)") },
                table: Conformance.table,
                mode: .insert
            )
            let queried = try await allEntities(account, table: Conformance.table)
            #expect(queried.count == 5)
            for entity in queried {
                let read = try await account.entity(
                    table: Conformance.table,
                    partitionKey: entity.partitionKey,
                    rowKey: entity.rowKey
                )
                #expect(entity.etag != nil && entity.etag == read?.etag)
                #expect(entity.timestamp != nil && entity.timestamp == read?.timestamp)
            }
        }
    }

    @Test(
        "keys with quotes, unicode and SQL metacharacters, and unicode property names, are kept",
        arguments: ConformanceBackend.all
    )
    func awkwardKeys(backend: ConformanceBackend) async throws {
        try await backend.withAccount(tables: [Conformance.table, Conformance.otherTable]) { account in
            let entities = [
                Entity(
                    partitionKey: "O'Brien",
                    rowKey: "\"; DROP TABLE entities; --",
                    properties: [Property("名前", .string("😀"))]
                ),
                Entity(
                    partitionKey: "Müller",
                    rowKey: "a b%_&+=",
                    properties: [Property("wéird_Ünïcode_1", .int64(-1))]
                ),
                Entity(partitionKey: "p", rowKey: "no-properties"),
            ]
            try await account.write(entities, table: Conformance.table, mode: .insert)
            for entity in entities {
                let read = try await account.entity(
                    table: Conformance.table,
                    partitionKey: entity.partitionKey,
                    rowKey: entity.rowKey
                )
                #expect(read?.canonical == entity)
            }
            #expect(try await allEntities(account, table: Conformance.table).map(\.canonical) == inKeyOrder(entities))
            #expect(
                try await account.entity(table: Conformance.table, partitionKey: "O'Brien", rowKey: "missing") == nil
            )
            #expect(
                try await account.entity(table: Conformance.otherTable, partitionKey: "p", rowKey: "no-properties")
                    == nil
            )
            #expect(
                try await account.entity(table: Conformance.missingTable, partitionKey: "p", rowKey: "no-properties")
                    == nil
            )
        }
    }

    /// Azure allows empty PartitionKey and RowKey; a scan must not skip the entity keyed ("", "").
    @Test("an entity with empty PartitionKey and RowKey is read and found by a scan", arguments: ConformanceBackend.all)
    func emptyKeys(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let entities = [
                Entity(partitionKey: "", rowKey: "", properties: [Property("A", .int32(1))]),
                Entity(partitionKey: "", rowKey: "a"),
            ]
            try await account.write(entities, table: Conformance.table, mode: .insert)
            #expect(
                try await account.entity(table: Conformance.table, partitionKey: "", rowKey: "")?.canonical
                    == entities[0]
            )
            #expect(try await allEntities(account, table: Conformance.table).map(\.canonical) == entities)
            #expect(
                try await allEntities(account, table: Conformance.table, partition: "").map(\.canonical) == entities
            )
        }
    }
}
