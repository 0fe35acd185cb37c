import SpeakEasyData
import Testing

@Suite("Storage conformance: tables")
struct ConformanceTables {
    static let entity = Entity(partitionKey: "p", rowKey: "r", properties: [Property("A", .int32(1))])

    @Test("a fresh account has no tables and no containers", arguments: ConformanceBackend.all)
    func freshAccount(backend: ConformanceBackend) async throws {
        try await backend.withAccount(tables: []) { account async throws in
            #expect(try await account.tableNames() == [])
            #expect(try await account.containerNames() == [])
        }
    }

    @Test("created tables are listed sorted, and creating one again changes nothing", arguments: ConformanceBackend.all)
    func createAndList(backend: ConformanceBackend) async throws {
        try await backend.withAccount(tables: []) { account in
            for table in ["gamma", "alpha", "beta"] { try await account.createTableIfNotExists(table) }
            #expect(try await account.tableNames() == ["alpha", "beta", "gamma"])
            try await account.write([Self.entity], table: "alpha", mode: .insert)
            try await account.createTableIfNotExists("alpha")
            #expect(try await account.tableNames() == ["alpha", "beta", "gamma"])
            #expect(
                try await account.entity(table: "alpha", partitionKey: "p", rowKey: "r")?.canonical == Self.entity,
                "creating again keeps the entities"
            )
        }
    }

    @Test("tables are independent: one table's entities are not another's", arguments: ConformanceBackend.all)
    func tablesIndependent(backend: ConformanceBackend) async throws {
        try await backend.withAccount(tables: [Conformance.table, Conformance.otherTable]) { account in
            let other = Entity(partitionKey: "p", rowKey: "s")
            try await account.write([Self.entity], table: Conformance.table, mode: .insert)
            try await account.write([Self.entity, other], table: Conformance.otherTable, mode: .insert)
            #expect(try await allEntities(account, table: Conformance.table).map(\.canonical) == [Self.entity])
            try await account.deleteAllEntities(table: Conformance.table)
            #expect(try await allEntities(account, table: Conformance.table).isEmpty)
            #expect(
                try await allEntities(account, table: Conformance.otherTable).map(\.canonical) == [Self.entity, other]
            )
        }
    }

    @Test("deleteAllEntities empties a table and keeps it", arguments: ConformanceBackend.all)
    func deleteAllEntities(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let entities = (0..<150).map { Entity(partitionKey: "p\($0 % 3)", rowKey: "r\($0)") }
            try await account.write(entities, table: Conformance.table, mode: .insert)
            try await account.deleteAllEntities(table: Conformance.table)
            #expect(try await account.tableNames() == [Conformance.table])
            let page = try await account.query(table: Conformance.table, .all, from: nil, limit: 10)
            #expect(page.entities.isEmpty)
            #expect(page.next == nil)
            #expect(try await account.holdsEntities(table: Conformance.table) == false)
            try await account.write([Self.entity], table: Conformance.table, mode: .insert)
            #expect(try await account.holdsEntities(table: Conformance.table))
        }
    }

    @Test("deleting a table removes it and its entities, and leaves the others", arguments: ConformanceBackend.all)
    func deleteTable(backend: ConformanceBackend) async throws {
        try await backend.withAccount(tables: [Conformance.table, Conformance.otherTable]) { account in
            try await account.write([Self.entity], table: Conformance.table, mode: .insert)
            try await account.write([Self.entity], table: Conformance.otherTable, mode: .insert)
            try await account.deleteTable(Conformance.table)
            #expect(try await account.tableNames() == [Conformance.otherTable])
            #expect(try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r") == nil)
            let error = await storageError {
                _ = try await account.query(table: Conformance.table, .all, from: nil, limit: 10)
            }
            #expect(error?.reason == .notFound)
            #expect(
                try await account.entity(table: Conformance.otherTable, partitionKey: "p", rowKey: "r")?.canonical
                    == Self.entity
            )
        }
    }
}
