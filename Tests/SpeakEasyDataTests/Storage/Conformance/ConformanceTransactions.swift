import SpeakEasyData
import Testing

@Suite("Storage conformance: entity group transactions")
struct ConformanceTransactions {
    static let table = Conformance.table

    static func entity(_ row: String, _ value: Int32 = 1, partition: String = "p") -> EncodedEntity {
        EncodedEntity(Entity(partitionKey: partition, rowKey: row, properties: [Property("N", .int32(value))]))
    }

    @Test("every kind of operation in one transaction; each gets its ETag", arguments: ConformanceBackend.all)
    func mixed(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(
                [
                    Entity(partitionKey: "p", rowKey: "u", properties: [Property("A", .int32(1))]),
                    Entity(partitionKey: "p", rowKey: "m", properties: [Property("A", .int32(1))]),
                    Entity(partitionKey: "p", rowKey: "d"),
                ],
                table: Self.table,
                mode: .insert
            )
            let before = try #require(try await account.entity(table: Self.table, partitionKey: "p", rowKey: "m")?.etag)
            let etags = try await account.transact(
                [
                    EntityOperation(.insert, Self.entity("i")), EntityOperation(.insertOrReplace, Self.entity("r")),
                    EntityOperation(.insertOrMerge, Self.entity("o")),
                    EntityOperation(.update(ifMatch: "*"), Self.entity("u", 2)),
                    EntityOperation(.merge(ifMatch: before), Self.entity("m", 3)),
                    EntityOperation(.delete(ifMatch: "*"), Self.entity("d")),
                ],
                table: Self.table
            )
            #expect(etags.count == 6)
            #expect(etags.prefix(5).allSatisfy { $0 != nil } && etags[5] == nil)
            let entities = Dictionary(
                uniqueKeysWithValues: try await allEntities(account, table: Self.table).map { ($0.rowKey, $0) }
            )
            #expect(Set(entities.keys) == ["i", "r", "o", "u", "m"])
            #expect(entities["u"]?.properties == [Property("N", .int32(2))], "update replaces")
            #expect(
                entities["m"]?.canonical.properties == [Property("A", .int32(1)), Property("N", .int32(3))],
                "merge keeps the others"
            )
            #expect(entities["m"]?.etag == etags[4])
        }
    }

    @Test("a failing operation rolls the whole transaction back and names its index", arguments: ConformanceBackend.all)
    func rollback(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write([Entity(partitionKey: "p", rowKey: "x")], table: Self.table, mode: .insert)
            let cases: [([EntityOperation], Int, String)] = [
                (
                    [EntityOperation(.insert, Self.entity("a")), EntityOperation(.insert, Self.entity("x"))], 1,
                    "EntityAlreadyExists"
                ),
                (
                    [
                        EntityOperation(.insert, Self.entity("a")),
                        EntityOperation(.update(ifMatch: "*"), Self.entity("missing")),
                    ], 1, "ResourceNotFound"
                ),
                (
                    [
                        EntityOperation(.insert, Self.entity("a")),
                        EntityOperation(.delete(ifMatch: "W/\"datetime'2001-01-01T00%3A00%3A00Z'\""), Self.entity("x")),
                    ], 1,
                    "UpdateConditionNotSatisfied"
                ),
                (
                    [
                        EntityOperation(.insert, Self.entity("a")),
                        EntityOperation(.insert, Self.entity("b", partition: "q")),
                    ], 1,
                    "CommandsInBatchActOnDifferentPartitions"
                ),
                (
                    [EntityOperation(.insert, Self.entity("a")), EntityOperation(.insertOrMerge, Self.entity("a"))], 1,
                    "InvalidDuplicateRow"
                ),
                ((0...100).map { EntityOperation(.insert, Self.entity("e\($0)")) }, 100, "InvalidInput"),
            ]
            for (operations, index, code) in cases {
                let error = await storageError { _ = try await account.transact(operations, table: Self.table) }
                #expect(error?.code == code)
                #expect(error?.operationIndex == index, "\(code)")
                #expect(
                    try await allEntities(account, table: Self.table).map(\.rowKey) == ["x"],
                    "\(code): nothing written"
                )
            }
            let missing = await storageError {
                _ = try await account.transact([EntityOperation(.insert, Self.entity("a"))], table: "nowhere")
            }
            #expect(missing?.code == "TableNotFound")
            let hundred = try await account.transact(
                (0..<100).map { EntityOperation(.insert, Self.entity("h\($0)")) },
                table: Self.table
            )
            #expect(hundred.count == 100)
        }
    }
}
