package import SpeakEasyStorage

extension SQLiteStorageAccount {
    package func tablePolicies(_ table: String) async throws -> [StoredAccessPolicy]? {
        try await readNow { connection in
            try connection.transaction(readOnly: true) {
                guard let name = try Self.storedTableName(table, connection) else { return nil }
                return try SQLiteStoredPolicies.tables.read(name, connection)
            }
        }
    }

    package func setTablePolicies(_ table: String, _ policies: [StoredAccessPolicy]) async throws {
        try await write { connection in
            try connection.transaction {
                guard let name = try Self.storedTableName(table, connection) else {
                    throw Self.tableNotFound(table, path: connection.path)
                }
                try SQLiteStoredPolicies.tables.replace(name, with: policies, connection)
            }
        }
    }

    /// The name `table` is stored under, in whatever letter case it was created (Azure's table
    /// names ignore case); nil when there is no such table.
    private static func storedTableName(_ table: String, _ connection: SQLiteConnection) throws(SQLiteError) -> String?
    {
        let statement = try connection.prepare("SELECT name FROM tables WHERE name = ? COLLATE NOCASE")
        statement.bind(1, table)
        return try statement.step() ? statement.text(0) : nil
    }
}
