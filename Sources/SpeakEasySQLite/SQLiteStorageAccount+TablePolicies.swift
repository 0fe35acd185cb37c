import SpeakEasyModel
package import SpeakEasyStorage

extension SQLiteStorageAccount {
    package func tablePolicies(_ table: String) async throws -> [StoredAccessPolicy]? {
        try await readNow { connection in
            try connection.transaction(readOnly: true) {
                guard let name = try Self.storedTableName(table, connection) else { return nil }
                let statement = try connection.prepare("SELECT id, start, expiry, permission FROM table_policies WHERE table_name = ? ORDER BY position")
                statement.bind(1, name)
                var policies: [StoredAccessPolicy] = []
                while try statement.step() {
                    policies.append(
                        StoredAccessPolicy(
                            id: statement.text(0), start: statement.optionalText(1).flatMap { try? EdmDateTime(parsing: $0) },
                            expiry: statement.optionalText(2).flatMap { try? EdmDateTime(parsing: $0) }, permission: statement.optionalText(3)))
                }
                return policies
            }
        }
    }

    package func setTablePolicies(_ table: String, _ policies: [StoredAccessPolicy]) async throws {
        try await write { connection in
            try connection.transaction {
                guard let name = try Self.storedTableName(table, connection) else { throw Self.tableNotFound(table, path: connection.path) }
                let clear = try connection.prepare("DELETE FROM table_policies WHERE table_name = ?")
                clear.bind(1, name)
                try clear.run()
                let insert = try connection.prepare("INSERT INTO table_policies (table_name, position, id, start, expiry, permission) VALUES (?, ?, ?, ?, ?, ?)")
                for (position, policy) in policies.enumerated() {
                    insert.reset()
                    insert.bind(1, name)
                    insert.bind(2, Int64(position))
                    insert.bind(3, policy.id)
                    insert.bindOptional(4, policy.start?.description)
                    insert.bindOptional(5, policy.expiry?.description)
                    insert.bindOptional(6, policy.permission)
                    try insert.run()
                }
            }
        }
    }

    /// The name `table` is stored under, in whatever letter case it was created (Azure's table
    /// names ignore case); nil when there is no such table.
    private static func storedTableName(_ table: String, _ connection: SQLiteConnection) throws(SQLiteError) -> String? {
        let statement = try connection.prepare("SELECT name FROM tables WHERE name = ? COLLATE NOCASE")
        statement.bind(1, table)
        return try statement.step() ? statement.text(0) : nil
    }
}
