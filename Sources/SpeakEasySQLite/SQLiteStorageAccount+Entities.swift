internal import CSQLite
import SpeakEasyFormats
import SpeakEasyModel
package import SpeakEasyStorage

/// Entities: the writes Azure has, and queries in key order.
extension SQLiteStorageAccount {
    /// Writes a whole call in one transaction: more than Azure's groups promise, which callers may not
    /// rely on, but it makes a bulk load fast.
    package func write(_ entities: [EncodedEntity], table: String, mode: WriteMode) async throws {
        try await write { connection in
            let now = EdmDateTime.now()
            let timestamp = now.description
            let etag = TableETag.weak(now)
            let insert = try connection.prepare(
                "INSERT INTO entities (table_name, partition_key, row_key, timestamp, etag, properties) VALUES (?, ?, ?, ?, ?, ?)"
                    + (mode == .insert
                        ? ""
                        : " ON CONFLICT DO UPDATE SET timestamp = excluded.timestamp, etag = excluded.etag, properties = excluded.properties")
            )
            let lookup = try connection.prepare(
                "SELECT properties FROM entities WHERE table_name = ? AND partition_key = ? AND row_key = ?"
            )
            // Key order turns random index inserts into one sweep over the index pages: much fewer cache misses.
            let ordered = entities.sorted { ($0.partitionKey, $0.rowKey) < ($1.partitionKey, $1.rowKey) }
            try connection.transaction {
                try Self.requireTable(table, connection)
                for entity in ordered {
                    var json = entity.properties
                    if mode == .insertOrMerge {
                        lookup.bind(1, table)
                        lookup.bind(2, entity.partitionKey)
                        lookup.bind(3, entity.rowKey)
                        let existing = try lookup.step() ? lookup.text(0) : nil
                        lookup.reset()
                        if let existing {
                            json = try Self.merged(existing, json, entity: entity, path: connection.path)
                        }
                    }
                    insert.bind(1, table)
                    insert.bind(2, entity.partitionKey)
                    insert.bind(3, entity.rowKey)
                    insert.bind(4, timestamp)
                    insert.bind(5, etag)
                    do {
                        try insert.runBindingText(6, json)
                    } catch let error as SQLiteError where error.code == SQLITE_CONSTRAINT {
                        throw SQLiteError(
                            path: connection.path,
                            code: SQLITE_CONSTRAINT,
                            message:
                                "entity (PartitionKey '\(entity.partitionKey)', RowKey '\(entity.rowKey)') already exists in table \(table)",
                            reason: .alreadyExists,
                            azureCode: "EntityAlreadyExists"
                        )
                    }
                }
            }
        }
    }

    package func update(_ entity: EncodedEntity, table: String, merge: Bool, ifMatch: String) async throws -> String {
        try await single(
            EntityOperation(merge ? .merge(ifMatch: ifMatch) : .update(ifMatch: ifMatch), entity),
            table: table
        ) ?? ""
    }

    package func deleteEntity(table: String, partitionKey: String, rowKey: String, ifMatch: String) async throws {
        _ = try await single(
            EntityOperation(
                .delete(ifMatch: ifMatch),
                EncodedEntity(partitionKey: partitionKey, rowKey: rowKey, properties: [])
            ),
            table: table
        )
    }

    /// One operation as a transaction of one: the same checks and codes, without an operation index.
    private func single(_ operation: EntityOperation, table: String) async throws -> String? {
        do {
            return try await transact([operation], table: table)[0]
        } catch var error as StorageError {
            error.operationIndex = nil
            throw error
        }
    }

    package func query(
        table: String,
        _ query: EntityQuery,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> EntityPage {
        try await read { connection in
            var reader = JSONPropertiesReader()
            return try Self.page(table: table, query, from: from, limit: limit, connection) { statement in
                var entity = try Self.entity(from: statement, reader: &reader, path: connection.path)
                guard query.filter?.matches(entity) ?? true else { return nil }
                if let select = query.select {
                    entity.properties = entity.properties.filter { select.contains($0.name) }
                }
                return entity
            }
        }
    }

    package func storedQuery(
        table: String,
        _ query: EntityQuery,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> StoredEntityPage {
        guard query.select == nil, query.filter?.isOnKeys ?? true else {
            return try await storedQueryByEncoding(table: table, query, from: from, limit: limit)
        }
        let read: @Sendable (ContinuationToken?, SQLiteConnection) throws -> StoredEntityPage = { from, connection in
            try Self.storedPage(table: table, query, from: from, limit: limit, connection)
        }
        let page: StoredEntityPage
        if let from,
            let ahead = await readAhead.take(SQLiteReadAhead.Key(table: table, query: query, from: from, limit: limit))
        {
            page = ahead
        } else {
            page = try await self.read { connection in
                try connection.transaction(readOnly: true) { try read(from, connection) }
            }
        }
        if let next = page.next {
            readAhead.start(SQLiteReadAhead.Key(table: table, query: query, from: next, limit: limit)) { connection in
                try read(next, connection)
            }
        }
        return page
    }

    /// A page of stored entities, each row's fields copied into the page as they are (see
    /// ``StoredEntityPage``), inside a transaction the caller began. The filter (on the keys alone)
    /// is checked on each row unless the statement's conditions are the filter.
    private static func storedPage(
        table: String,
        _ query: EntityQuery,
        from: ContinuationToken?,
        limit: Int,
        _ connection: SQLiteConnection
    ) throws -> StoredEntityPage {
        try requireTable(table, connection)
        let scan = try SQLiteScan(connection, table: table, query: query, from: from, columns: Self.storedColumns)
        let filter = SQLiteScan.statementCoversFilter(query.filter) ? nil : query.filter
        // About 1.5 KB an entity, as seeded: one allocation for most pages.
        var page = StoredEntityPage(reservingBytes: min(limit, 1000) * 1600)
        page.next = try scan.rows(limit: limit) { statement in
            if let filter, !filter.matches(Entity(partitionKey: statement.text(0), rowKey: statement.text(1))) {
                return false
            }
            page.append(
                partitionKey: statement.textInPlace(0),
                rowKey: statement.textInPlace(1),
                etag: statement.isNull(3) ? nil : statement.textInPlace(3),
                properties: statement.blobInPlace(4),
                timestamp: statement.textInPlace(2)
            )
            return true
        }
        return page
    }

    /// A page of a query, read in one transaction: each row of the scan (keys, timestamp, etag,
    /// properties) made into an item by `item`, which returns nil for a row the filter leaves out.
    private static func page<Item>(
        table: String,
        _ query: EntityQuery,
        from: ContinuationToken?,
        limit: Int,
        _ connection: SQLiteConnection,
        item: (SQLiteStatement) throws -> Item?
    ) throws -> QueryPage<Item> {
        try connection.transaction(readOnly: true) {
            try scanPage(table: table, query, from: from, limit: limit, connection, item: item)
        }
    }

    /// What a scan selects after the keys: columns 2, 3 and 4.
    private static let storedColumns = "timestamp, etag, properties"

    /// ``page(table:_:from:limit:_:item:)`` inside a transaction the caller began.
    private static func scanPage<Item>(
        table: String,
        _ query: EntityQuery,
        from: ContinuationToken?,
        limit: Int,
        _ connection: SQLiteConnection,
        item: (SQLiteStatement) throws -> Item?
    ) throws -> QueryPage<Item> {
        try requireTable(table, connection)
        let scan = try SQLiteScan(
            connection,
            table: table,
            query: query,
            from: from,
            columns: Self.storedColumns
        )
        return try scan.page(limit: limit, item: item)
    }

    package func lookUpEntity(table: String, partitionKey: String, rowKey: String) async throws -> EntityLookup {
        try await readNow { connection in
            let entity = try connection.withCached(
                "SELECT partition_key, row_key, timestamp, etag, properties FROM entities WHERE table_name = ? AND partition_key = ? AND row_key = ?"
            ) { statement throws(SQLiteError) in
                statement.bind(1, table)
                statement.bind(2, partitionKey)
                statement.bind(3, rowKey)
                var reader = JSONPropertiesReader()
                return try statement.step()
                    ? try Self.entity(from: statement, reader: &reader, path: connection.path) : nil
            }
            if let entity { return .found(entity) }
            // Only a miss asks whether the table is there.
            let tableExists = try connection.withCached("SELECT 1 FROM tables WHERE name = ?") {
                statement throws(SQLiteError) in
                statement.bind(1, table)
                return try statement.step()
            }
            return tableExists ? .noSuchEntity : .noSuchTable
        }
    }

    package func entityDigests(
        table: String,
        partition: String?,
        from: ContinuationToken?,
        limit: Int
    ) async throws
        -> (digests: [KeyedDigest], next: ContinuationToken?)
    {
        try await read { connection in
            try connection.transaction(readOnly: true) {
                let scan = try SQLiteScan(
                    connection,
                    table: table,
                    query: EntityQuery(partition: partition),
                    from: from,
                    columns: "properties"
                )
                var reader = JSONPropertiesReader()
                let page = try scan.page(limit: limit) { statement in
                    let partitionKey = statement.text(0)
                    let rowKey = statement.text(1)
                    let properties = try statement.withText(2) { json throws(SQLiteError) in
                        try Self.decodeProperties(
                            json,
                            reader: &reader,
                            partitionKey: partitionKey,
                            rowKey: rowKey,
                            path: connection.path
                        )
                    }
                    let canonical = EntityDigest.canonicalProperties(properties)
                    return KeyedDigest(
                        partitionKey: partitionKey,
                        rowKey: rowKey,
                        digest: EntityDigest(partitionKey: partitionKey, rowKey: rowKey, canonicalProperties: canonical)
                    )
                }
                return (page.entities, page.next)
            }
        }
    }

    // MARK: Helpers (static: a job must not hold the account, whose last release joins the threads)

    static func requireTable(_ table: String, _ connection: SQLiteConnection) throws {
        let exists = try connection.withCached("SELECT 1 FROM tables WHERE name = ?") { statement throws(SQLiteError) in
            statement.bind(1, table)
            return try statement.step()
        }
        guard exists else { throw tableNotFound(table, path: connection.path) }
    }

    /// The stored properties and ETag of an entity that must exist.
    static func current(
        _ partitionKey: String,
        _ rowKey: String,
        table: String,
        _ connection: SQLiteConnection
    ) throws -> (String, String) {
        let statement = try connection.prepare(
            "SELECT properties, etag FROM entities WHERE table_name = ? AND partition_key = ? AND row_key = ?"
        )
        statement.bind(1, table)
        statement.bind(2, partitionKey)
        statement.bind(3, rowKey)
        guard try statement.step() else {
            throw SQLiteError(
                path: connection.path,
                code: SQLITE_NOTFOUND,
                message: "no entity (PartitionKey '\(partitionKey)', RowKey '\(rowKey)') in table \(table)",
                reason: .notFound,
                azureCode: "ResourceNotFound"
            )
        }
        return (statement.text(0), statement.text(1))
    }

    static func check(ifMatch: String, current: String, _ partitionKey: String, _ rowKey: String, path: String) throws {
        guard ifMatch == "*" || ifMatch == current else {
            throw SQLiteError(
                path: path,
                code: SQLITE_CONSTRAINT,
                message:
                    "entity (PartitionKey '\(partitionKey)', RowKey '\(rowKey)') has ETag \(current), not \(ifMatch): it changed since it was read",
                reason: .preconditionFailed,
                azureCode: "UpdateConditionNotSatisfied"
            )
        }
    }

    /// Azure's merge of stored properties and new ones, as stored JSON.
    static func merged(_ existing: String, _ new: [UInt8], entity: EncodedEntity, path: String) throws -> [UInt8] {
        var reader = JSONPropertiesReader()
        func decode(_ json: [UInt8]) throws -> [Property] {
            try json.withUnsafeBytes { json throws(SQLiteError) in
                try decodeProperties(
                    json,
                    reader: &reader,
                    partitionKey: entity.partitionKey,
                    rowKey: entity.rowKey,
                    path: path
                )
            }
        }
        let old = try decode(Array(existing.utf8))
        let update = try decode(new)
        let merged = Entity(partitionKey: "", rowKey: "", properties: old).merging(
            Entity(partitionKey: "", rowKey: "", properties: update)
        )
        var json: [UInt8] = []
        JSONEntityWriter.appendPropertiesObject(merged.properties, to: &json)
        return json
    }

    /// An entity from a row whose columns are keys, timestamp, etag and properties; `reader` is the
    /// scan's, reused from row to row.
    static func entity(
        from statement: SQLiteStatement,
        reader: inout JSONPropertiesReader,
        path: String
    ) throws(SQLiteError) -> Entity {
        let partitionKey = statement.text(0)
        let rowKey = statement.text(1)
        let properties = try statement.withText(4) { json throws(SQLiteError) in
            try decodeProperties(json, reader: &reader, partitionKey: partitionKey, rowKey: rowKey, path: path)
        }
        return Entity(
            partitionKey: partitionKey,
            rowKey: rowKey,
            timestamp: try? EdmDateTime(parsing: statement.text(2)),
            etag: statement.text(3),
            properties: properties
        )
    }

    static func decodeProperties(
        _ json: UnsafeRawBufferPointer,
        reader: inout JSONPropertiesReader,
        partitionKey: String,
        rowKey: String,
        path: String
    ) throws(SQLiteError) -> [Property] {
        do {
            return try reader.properties(fromObject: json)
        } catch {
            throw SQLiteError(
                path: path,
                code: SQLITE_CORRUPT,
                message:
                    "entity (PartitionKey '\(partitionKey)', RowKey '\(rowKey)') has malformed properties: \(error)",
                reason: .corrupt
            )
        }
    }
}
