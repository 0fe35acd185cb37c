import SpeakEasyData
import Testing

@Suite("Storage conformance: write modes")
struct ConformanceWrites {
    static let original = Entity(
        partitionKey: "p",
        rowKey: "r",
        properties: [Property("A", .int32(1)), Property("B", .string("old"))]
    )

    func read(_ account: any StorageAccount, _ partitionKey: String, _ rowKey: String) async throws -> Entity? {
        try await account.entity(table: Conformance.table, partitionKey: partitionKey, rowKey: rowKey)?.canonical
    }

    @Test(
        "every write mode creates entities that are not there yet",
        arguments: ConformanceBackend.all,
        WriteMode.allCases
    )
    func createsNew(backend: ConformanceBackend, mode: WriteMode) async throws {
        try await backend.withAccount { account in
            let entities = [
                Entity(partitionKey: "b", rowKey: "2", properties: [Property("N", .int32(2))]),
                Entity(
                    partitionKey: "a",
                    rowKey: "1",
                    properties: [Property("N", .int32(1)), Property("S", .string("x"))]
                ),
                Entity(partitionKey: "b", rowKey: "1"),
            ]
            try await account.write(entities, table: Conformance.table, mode: mode)
            #expect(try await allEntities(account, table: Conformance.table).map(\.canonical) == inKeyOrder(entities))
        }
    }

    @Test("a write of no entities writes nothing, in every mode", arguments: ConformanceBackend.all, WriteMode.allCases)
    func emptyWrite(backend: ConformanceBackend, mode: WriteMode) async throws {
        try await backend.withAccount { account in
            try await account.write([Entity](), table: Conformance.table, mode: mode)
            #expect(try await allEntities(account, table: Conformance.table).isEmpty)
        }
    }

    @Test(
        "insert refuses an existing entity (EntityAlreadyExists) and writes nothing of its group",
        arguments: ConformanceBackend.all
    )
    func insertExisting(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write([Self.original], table: Conformance.table, mode: .insert)
            let fresh = Entity(partitionKey: "p", rowKey: "fresh")
            let replacement = Entity(partitionKey: "p", rowKey: "r", properties: [Property("C", .boolean(true))])
            let error = await storageError {
                try await account.write([fresh, replacement], table: Conformance.table, mode: .insert)
            }
            #expect(error?.reason == .alreadyExists)
            #expect(error?.code == "EntityAlreadyExists")
            // Two entities of one partition are one transaction group: all or nothing.
            #expect(try await read(account, "p", "fresh") == nil)
            #expect(try await read(account, "p", "r") == Self.original)
        }
    }

    @Test(
        "insert refuses a key repeated in one call, and writes nothing of that key's group",
        arguments: ConformanceBackend.all
    )
    func insertRepeatedKey(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account async throws in
            let error = await storageError {
                try await account.write(
                    [Self.original, Entity(partitionKey: "q", rowKey: "r"), Self.original],
                    table: Conformance.table,
                    mode: .insert
                )
            }
            #expect(error?.reason == .alreadyExists)
            #expect(try await read(account, "p", "r") == nil)
        }
    }

    @Test("insertOrReplace replaces all the properties of an existing entity", arguments: ConformanceBackend.all)
    func insertOrReplace(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write([Self.original], table: Conformance.table, mode: .insert)
            let replacement = Entity(
                partitionKey: "p",
                rowKey: "r",
                properties: [Property("B", .string("new")), Property("C", .double(.nan))]
            )
            try await account.write(
                [replacement, Entity(partitionKey: "p", rowKey: "s")],
                table: Conformance.table,
                mode: .insertOrReplace
            )
            #expect(try await read(account, "p", "r") == replacement.canonical)
            #expect(try await read(account, "p", "s") == Entity(partitionKey: "p", rowKey: "s"))
        }
    }

    @Test("insertOrReplace with no properties leaves an entity with none", arguments: ConformanceBackend.all)
    func replaceWithNothing(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write([Self.original], table: Conformance.table, mode: .insert)
            try await account.write(
                [Entity(partitionKey: "p", rowKey: "r")],
                table: Conformance.table,
                mode: .insertOrReplace
            )
            #expect(try await read(account, "p", "r") == Entity(partitionKey: "p", rowKey: "r"))
        }
    }

    @Test("insertOrMerge keeps old properties, replaces changed ones, adds new ones", arguments: ConformanceBackend.all)
    func insertOrMerge(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write([Self.original], table: Conformance.table, mode: .insert)
            let update = Entity(
                partitionKey: "p",
                rowKey: "r",
                properties: [Property("B", .string("new")), Property("C", .int64(.max))]
            )
            try await account.write([update], table: Conformance.table, mode: .insertOrMerge)
            let merged = Entity(
                partitionKey: "p",
                rowKey: "r",
                properties: [Property("A", .int32(1)), Property("B", .string("new")), Property("C", .int64(.max))]
            )
            #expect(try await read(account, "p", "r") == merged)
        }
    }

    @Test(
        "insertOrMerge may change a property's type, and with no properties changes nothing",
        arguments: ConformanceBackend.all
    )
    func mergeTypes(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write([Self.original], table: Conformance.table, mode: .insert)
            try await account.write(
                [Entity(partitionKey: "p", rowKey: "r", properties: [Property("A", .string("1"))])],
                table: Conformance.table,
                mode: .insertOrMerge
            )
            try await account.write(
                [Entity(partitionKey: "p", rowKey: "r")],
                table: Conformance.table,
                mode: .insertOrMerge
            )
            #expect(
                try await read(account, "p", "r")
                    == Entity(
                        partitionKey: "p",
                        rowKey: "r",
                        properties: [Property("A", .string("1")), Property("B", .string("old"))]
                    )
            )
        }
    }

    /// Every mode is safe to repeat: it is how an interrupted run finishes.
    @Test(
        "writing the same entities again with insertOrReplace or insertOrMerge leaves the same content",
        arguments: ConformanceBackend.all,
        [WriteMode.insertOrReplace, .insertOrMerge]
    )
    func repeatable(backend: ConformanceBackend, mode: WriteMode) async throws {
        try await backend.withAccount { account in
            let entities = (0..<30).map {
                Entity(partitionKey: "p\($0 % 3)", rowKey: "r\($0)", properties: [Property("N", .int32(Int32($0)))])
            }
            try await account.write(entities, table: Conformance.table, mode: mode)
            try await account.write(entities, table: Conformance.table, mode: mode)
            #expect(try await allEntities(account, table: Conformance.table).map(\.canonical) == inKeyOrder(entities))
        }
    }
}
