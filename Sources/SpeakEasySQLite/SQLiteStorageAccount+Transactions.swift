internal import CSQLite
import SpeakEasyModel
package import SpeakEasyStorage

/// Entity group transactions: one SQLite transaction for all the operations.
extension SQLiteStorageAccount {
    package func transact(_ operations: [EntityOperation], table: String) async throws -> [String?] {
        try TransactionGroups.check(operations, account: path)
        return try await write { connection in
            try connection.transaction {
                try Self.requireTable(table, connection)
                let now = EdmDateTime.now()
                let timestamp = now.description
                let etag = TableETag.weak(now)
                var etags: [String?] = []
                for (index, operation) in operations.enumerated() {
                    do {
                        etags.append(
                            try Self.run(operation, table: table, timestamp: timestamp, etag: etag, connection)
                        )
                    } catch let error as SQLiteError {
                        throw error.storageError.at(operation: index)
                    } catch let error as StorageError {
                        throw error.at(operation: index)
                    }
                }
                return etags
            }
        }
    }

    /// One operation inside the transaction; its new ETag (nil for a delete).
    private static func run(
        _ operation: EntityOperation,
        table: String,
        timestamp: String,
        etag: String,
        _ connection: SQLiteConnection
    ) throws
        -> String?
    {
        let entity = operation.entity
        let keys = [table, entity.partitionKey, entity.rowKey]
        func statement(_ sql: String, _ values: [String]) throws -> SQLiteStatement {
            let statement = try connection.prepare(sql)
            for (index, value) in values.enumerated() { statement.bind(Int32(index + 1), value) }
            return statement
        }
        let upsert =
            "INSERT INTO entities (table_name, partition_key, row_key, timestamp, etag, properties) VALUES (?, ?, ?, ?, ?, ?)"
        switch operation.kind {
        case .insert:
            // Kept prepared: a batch inserts a hundred.
            let inserted = Result { () throws(SQLiteError) in
                try connection.withCached(upsert) { statement throws(SQLiteError) in
                    for (index, value) in (keys + [timestamp, etag]).enumerated() {
                        statement.bind(Int32(index + 1), value)
                    }
                    try statement.runBindingText(6, entity.properties)
                }
            }
            if case .failure(let error) = inserted {
                guard error.code == SQLITE_CONSTRAINT else { throw error }
                throw SQLiteError(
                    path: connection.path,
                    code: SQLITE_CONSTRAINT,
                    message: "The specified entity already exists.",
                    reason: .alreadyExists,
                    azureCode: "EntityAlreadyExists"
                )
            }
        case .insertOrReplace, .insertOrMerge:
            var json = entity.properties
            if operation.kind == .insertOrMerge {
                let lookup = try statement(
                    "SELECT properties FROM entities WHERE table_name = ? AND partition_key = ? AND row_key = ?",
                    keys
                )
                if try lookup.step() { json = try merged(lookup.text(0), json, entity: entity, path: connection.path) }
            }
            try statement(
                upsert
                    + " ON CONFLICT DO UPDATE SET timestamp = excluded.timestamp, etag = excluded.etag, properties = excluded.properties",
                keys + [timestamp, etag]
            ).runBindingText(6, json)
        case .update(let ifMatch), .merge(let ifMatch):
            let (existing, currentETag) = try current(entity.partitionKey, entity.rowKey, table: table, connection)
            try check(ifMatch: ifMatch, current: currentETag, entity.partitionKey, entity.rowKey, path: connection.path)
            let json =
                operation.kind == .merge(ifMatch: ifMatch)
                ? try merged(existing, entity.properties, entity: entity, path: connection.path) : entity.properties
            try statement(
                "UPDATE entities SET timestamp = ?, etag = ?, properties = ? WHERE table_name = ? AND partition_key = ? AND row_key = ?",
                [timestamp, etag, ""] + keys
            ).runBindingText(3, json)
        case .delete(let ifMatch):
            let (_, currentETag) = try current(entity.partitionKey, entity.rowKey, table: table, connection)
            try check(ifMatch: ifMatch, current: currentETag, entity.partitionKey, entity.rowKey, path: connection.path)
            try statement("DELETE FROM entities WHERE table_name = ? AND partition_key = ? AND row_key = ?", keys).run()
            return nil
        }
        return etag
    }
}
