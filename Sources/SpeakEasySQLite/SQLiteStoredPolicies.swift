import SpeakEasyModel
import SpeakEasyStorage

/// The rows of `container_policies` and `table_policies`, which differ only in the column that names
/// their owner: a container's or a table's stored access policies, in the order they were set.
struct SQLiteStoredPolicies {
    /// `container_policies` or `table_policies`.
    let table: String
    /// `container` or `table_name`.
    let owner: String

    static let containers = SQLiteStoredPolicies(table: "container_policies", owner: "container")
    static let tables = SQLiteStoredPolicies(table: "table_policies", owner: "table_name")

    func read(_ name: String, _ connection: SQLiteConnection) throws(SQLiteError) -> [StoredAccessPolicy] {
        let statement = try connection.prepare(
            "SELECT id, start, expiry, permission FROM \(table) WHERE \(owner) = ? ORDER BY position"
        )
        statement.bind(1, name)
        var policies: [StoredAccessPolicy] = []
        while try statement.step() {
            policies.append(
                StoredAccessPolicy(
                    id: statement.text(0),
                    start: statement.optionalText(1).flatMap { try? EdmDateTime(parsing: $0) },
                    expiry: statement.optionalText(2).flatMap { try? EdmDateTime(parsing: $0) },
                    permission: statement.optionalText(3)
                )
            )
        }
        return policies
    }

    /// Replaces `name`'s policies with `policies` (inside the caller's transaction).
    func replace(
        _ name: String,
        with policies: [StoredAccessPolicy],
        _ connection: SQLiteConnection
    ) throws(SQLiteError) {
        let clear = try connection.prepare("DELETE FROM \(table) WHERE \(owner) = ?")
        clear.bind(1, name)
        try clear.run()
        let insert = try connection.prepare(
            "INSERT INTO \(table) (\(owner), position, id, start, expiry, permission) VALUES (?, ?, ?, ?, ?, ?)"
        )
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
