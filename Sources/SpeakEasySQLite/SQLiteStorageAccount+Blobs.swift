internal import CSQLite
import SpeakEasyModel
package import SpeakEasyStorage

/// Blob containers and blobs, with Azure's conditional requests and ranged reads.
extension SQLiteStorageAccount {
    @discardableResult
    package func createContainerIfNotExists(
        _ container: String,
        access: ContainerAccess,
        metadata: [String: String]
    ) async throws -> Bool {
        try await write { connection in
            let now = EdmDateTime.now()
            let statement = try connection.prepare(
                "INSERT INTO containers (name, public_access, etag, last_modified, metadata) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
            )
            statement.bind(1, container)
            statement.bind(2, access.rawValue)
            statement.bind(3, Self.blobETag(for: now))
            statement.bind(4, now.description)
            statement.bind(5, SQLiteMetadataColumn.encode(metadata))
            try statement.run()
            return connection.changes > 0
        }
    }

    package func containerProperties(_ container: String) async throws -> ContainerProperties? {
        try await readNow { connection in try Self.containerProperties(container, connection) }
    }

    package func setContainerMetadata(
        _ container: String,
        metadata: [String: String]
    ) async throws -> ContainerProperties {
        try await write { connection in
            try connection.transaction {
                try Self.changeContainer(
                    container,
                    setting: "metadata",
                    to: SQLiteMetadataColumn.encode(metadata),
                    connection
                )
                guard let properties = try Self.containerProperties(container, connection) else {
                    throw Self.containerNotFound(container, connection)
                }
                return properties
            }
        }
    }

    package func setContainerACL(
        _ container: String,
        access: ContainerAccess,
        policies: [StoredAccessPolicy]
    ) async throws -> ContainerProperties {
        try await write { connection in
            try connection.transaction {
                try Self.changeContainer(container, setting: "public_access", to: access.rawValue, connection)
                try SQLiteStoredPolicies.containers.replace(container, with: policies, connection)
                guard let properties = try Self.containerProperties(container, connection) else {
                    throw Self.containerNotFound(container, connection)
                }
                return properties
            }
        }
    }

    package func containerPolicies(_ container: String) async throws -> [StoredAccessPolicy]? {
        try await readNow { connection in
            try connection.transaction(readOnly: true) {
                guard try Self.containerProperties(container, connection) != nil else { return nil }
                return try SQLiteStoredPolicies.containers.read(container, connection)
            }
        }
    }

    private static func containerProperties(
        _ container: String,
        _ connection: SQLiteConnection
    ) throws(SQLiteError) -> ContainerProperties? {
        try connection.withCached("SELECT public_access, etag, last_modified, metadata FROM containers WHERE name = ?")
        { statement throws(SQLiteError) in
            statement.bind(1, container)
            guard try statement.step(), let access = ContainerAccess(rawValue: statement.text(0)) else { return nil }
            return ContainerProperties(
                name: container,
                access: access,
                etag: statement.text(1),
                lastModified: (try? EdmDateTime(parsing: statement.text(2))) ?? .min,
                metadata: SQLiteMetadataColumn.decode(statement.text(3))
            )
        }
    }

    package func deleteContainer(_ container: String) async throws {
        try await write { connection in
            try connection.transaction {
                try Self.requireContainer(container, connection)
                for sql in [
                    "DELETE FROM blobs WHERE container = ?", "DELETE FROM blocks WHERE container = ?",
                    "DELETE FROM container_policies WHERE container = ?",
                    "DELETE FROM containers WHERE name = ?",
                ] {
                    let statement = try connection.prepare(sql)
                    statement.bind(1, container)
                    try statement.run()
                }
            }
        }
    }

    package func containerNames() async throws -> [String] {
        try await names("SELECT name FROM containers ORDER BY name")
    }

    package func putBlob(
        container: String,
        name: String,
        contentType: String,
        data: [UInt8],
        conditions: BlobConditions
    ) async throws -> Bool {
        let md5 = BlobProperties.contentMD5(of: data)
        return try await write { connection in
            try connection.transaction {
                try Self.requireContainer(container, connection)
                let current = try Self.blobProperties(container: container, name: name, connection)
                try Self.check(conditions, current, reading: false, blob: name, path: connection.path)
                if let current, current.contentMD5 == md5, current.contentType == contentType { return false }
                try Self.store(
                    container: container,
                    name: name,
                    settings: BlobSettings(contentType: contentType),
                    data: data,
                    md5: md5,
                    connection
                )
                return true
            }
        }
    }

    package func storeBlob(
        container: String,
        name: String,
        data: [UInt8],
        settings: BlobSettings,
        conditions: BlobConditions
    ) async throws
        -> BlobProperties
    {
        let md5 = settings.contentMD5 ?? BlobProperties.contentMD5(of: data)
        return try await write { connection in
            try connection.transaction {
                try Self.requireContainer(container, connection)
                let current = try Self.blobProperties(container: container, name: name, connection)
                try Self.check(conditions, current, reading: false, blob: name, path: connection.path)
                return try Self.store(
                    container: container,
                    name: name,
                    settings: settings,
                    data: data,
                    md5: md5,
                    connection
                )
            }
        }
    }

    package func blobProperties(
        container: String,
        name: String,
        conditions: BlobConditions
    ) async throws -> BlobProperties? {
        try await readNow { connection in
            try connection.transaction(readOnly: true) {
                guard let properties = try Self.blobProperties(container: container, name: name, connection) else {
                    return nil
                }
                try Self.check(conditions, properties, reading: true, blob: name, path: connection.path)
                return properties
            }
        }
    }

    package func setBlobMetadata(
        container: String,
        name: String,
        metadata: [String: String],
        conditions: BlobConditions
    ) async throws -> BlobProperties {
        try await update(container: container, name: name, conditions: conditions, set: "metadata = ?") { statement in
            statement.bind(1, SQLiteMetadataColumn.encode(metadata))
            return 2
        }
    }

    package func setBlobProperties(
        container: String,
        name: String,
        settings: BlobSettings,
        conditions: BlobConditions
    ) async throws -> BlobProperties {
        try await update(
            container: container,
            name: name,
            conditions: conditions,
            set:
                "content_type = ?, content_md5 = ?, cache_control = ?, content_disposition = ?, content_encoding = ?, content_language = ?"
        ) { statement in
            statement.bind(1, settings.contentType)
            statement.bind(2, settings.contentMD5 ?? "")
            statement.bind(3, settings.headers.cacheControl)
            statement.bind(4, settings.headers.contentDisposition)
            statement.bind(5, settings.headers.contentEncoding)
            statement.bind(6, settings.headers.contentLanguage)
            return 7
        }
    }

    /// Changes some of a blob's properties (`set`, whose values `bind` binds, returning the next
    /// parameter's index) with a new ETag and Last-Modified, when `conditions` allow.
    private func update(
        container: String,
        name: String,
        conditions: BlobConditions,
        set: String,
        bind: @escaping @Sendable (SQLiteStatement) -> Int32
    ) async throws -> BlobProperties {
        try await write { connection in
            try connection.transaction {
                try Self.requireContainer(container, connection)
                let current = try Self.blobProperties(container: container, name: name, connection)
                guard current != nil else { throw Self.blobNotFound(container: container, name: name, connection) }
                try Self.check(conditions, current, reading: false, blob: name, path: connection.path)
                let now = EdmDateTime.now()
                let statement = try connection.prepare(
                    "UPDATE blobs SET \(set), etag = ?, last_modified = ? WHERE container = ? AND name = ?"
                )
                let next = bind(statement)
                statement.bind(next, Self.blobETag(for: now))
                statement.bind(next + 1, now.description)
                statement.bind(next + 2, container)
                statement.bind(next + 3, name)
                try statement.run()
                guard let properties = try Self.blobProperties(container: container, name: name, connection) else {
                    throw Self.blobNotFound(container: container, name: name, connection)
                }
                return properties
            }
        }
    }

    package func stageBlock(container: String, name: String, blockID: String, data: [UInt8]) async throws {
        try await write { connection in
            try connection.transaction {
                try Self.requireContainer(container, connection)
                let statement = try connection.prepare(
                    "INSERT OR REPLACE INTO blocks (container, blob, block_id, committed, position, size, data) VALUES (?, ?, ?, 0, 0, ?, ?)"
                )
                statement.bind(1, container)
                statement.bind(2, name)
                statement.bind(3, blockID)
                statement.bind(4, Int64(data.count))
                try statement.runBindingBlob(5, data)
            }
        }
    }

    @discardableResult
    package func commitBlocks(
        container: String,
        name: String,
        blocks: [BlockReference],
        settings: BlobSettings,
        conditions: BlobConditions
    ) async throws
        -> BlobProperties
    {
        try await write { connection in
            try connection.transaction {
                try Self.requireContainer(container, connection)
                let current = try Self.blobProperties(container: container, name: name, connection)
                try Self.check(conditions, current, reading: false, blob: name, path: connection.path)
                // The committed blocks are ranges of the blob as it stands.
                var committed: [String: Range<Int>] = [:]
                let list = try connection.prepare(
                    "SELECT block_id, position, size FROM blocks WHERE container = ? AND blob = ? AND committed = 1"
                )
                list.bind(1, container)
                list.bind(2, name)
                while try list.step() {
                    let start = Int(list.int64(1))
                    committed[list.text(0)] = start..<start + Int(list.int64(2))
                }
                let staged = try connection.prepare(
                    "SELECT data FROM blocks WHERE container = ? AND blob = ? AND committed = 0 AND block_id = ?"
                )
                let old = try connection.prepare(
                    "SELECT substr(data, ?, ?) FROM blobs WHERE container = ? AND name = ?"
                )
                var data: [UInt8] = []
                var sizes: [(id: String, position: Int, size: Int)] = []
                for block in blocks {
                    var bytes: [UInt8]?
                    if block.source != .committed {
                        staged.reset()
                        staged.bind(1, container)
                        staged.bind(2, name)
                        staged.bind(3, block.id)
                        if try staged.step() { bytes = staged.bytes(0) }
                    }
                    if bytes == nil, block.source != .uncommitted, let range = committed[block.id] {
                        old.reset()
                        old.bind(1, Int64(range.lowerBound + 1))
                        old.bind(2, Int64(range.count))
                        old.bind(3, container)
                        old.bind(4, name)
                        bytes = try old.step() ? old.bytes(0) : nil
                    }
                    guard let bytes else {
                        throw SQLiteError(
                            path: connection.path,
                            code: SQLITE_CONSTRAINT,
                            message:
                                "blob '\(name)': the block list names block \(block.id) (\(block.source.rawValue)), which is not there",
                            reason: .invalidInput,
                            azureCode: "InvalidBlockList"
                        )
                    }
                    sizes.append((block.id, data.count, bytes.count))
                    data += bytes
                }
                let md5 = settings.contentMD5 ?? BlobProperties.contentMD5(of: data)
                let properties = try Self.store(
                    container: container,
                    name: name,
                    settings: settings,
                    data: data,
                    md5: md5,
                    connection
                )
                let record = try connection.prepare(
                    "INSERT OR REPLACE INTO blocks (container, blob, block_id, committed, position, size, data) VALUES (?, ?, ?, 1, ?, ?, NULL)"
                )
                for block in sizes {
                    record.reset()
                    record.bind(1, container)
                    record.bind(2, name)
                    record.bind(3, block.id)
                    record.bind(4, Int64(block.position))
                    record.bind(5, Int64(block.size))
                    try record.run()
                }
                return properties
            }
        }
    }

    /// Writes a blob's content and properties, with a new ETag and Last-Modified, and drops its
    /// blocks: after a Put Blob there are none, and a Put Block List records its own afterwards.
    @discardableResult
    private static func store(
        container: String,
        name: String,
        settings: BlobSettings,
        data: [UInt8],
        md5: String,
        _ connection: SQLiteConnection
    ) throws
        -> BlobProperties
    {
        let now = EdmDateTime.now()
        let etag = blobETag(for: now)
        let statement = try connection.prepare(
            """
            INSERT INTO blobs (container, name, content_type, content_md5, size, etag, last_modified, data,
                               cache_control, content_disposition, content_encoding, content_language, metadata)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET content_type = excluded.content_type, content_md5 = excluded.content_md5, size = excluded.size,
                etag = excluded.etag, last_modified = excluded.last_modified, data = excluded.data, cache_control = excluded.cache_control,
                content_disposition = excluded.content_disposition, content_encoding = excluded.content_encoding,
                content_language = excluded.content_language, metadata = excluded.metadata
            """
        )
        statement.bind(1, container)
        statement.bind(2, name)
        statement.bind(3, settings.contentType)
        statement.bind(4, md5)
        statement.bind(5, Int64(data.count))
        statement.bind(6, etag)
        statement.bind(7, now.description)
        statement.bind(9, settings.headers.cacheControl)
        statement.bind(10, settings.headers.contentDisposition)
        statement.bind(11, settings.headers.contentEncoding)
        statement.bind(12, settings.headers.contentLanguage)
        statement.bind(13, SQLiteMetadataColumn.encode(settings.metadata))
        try statement.runBindingBlob(8, data)
        try dropBlocks(container: container, name: name, connection)
        return BlobProperties(
            name: name,
            contentType: settings.contentType,
            contentMD5: md5,
            size: data.count,
            etag: etag,
            lastModified: now,
            headers: settings.headers,
            metadata: settings.metadata
        )
    }

    /// Drops a blob's blocks (one blob, or with `name` nil the container's).
    private static func dropBlocks(container: String, name: String?, _ connection: SQLiteConnection) throws {
        let statement = try connection.prepare(
            "DELETE FROM blocks WHERE container = ?" + (name == nil ? "" : " AND blob = ?")
        )
        statement.bind(1, container)
        if let name { statement.bind(2, name) }
        try statement.run()
    }

    package func blobPage(
        container: String,
        prefix: String,
        from marker: String?,
        limit: Int,
        includeUncommitted: Bool
    ) async throws -> BlobPage {
        try await read { connection in
            try connection.transaction(readOnly: true) {
                try Self.requireContainer(container, connection)
                // Names compare as bytes (BINARY collation); a prefix is matched on its bytes, not
                // with LIKE, whose wildcards and case folding are not Azure's. The last column tells
                // a blob with content (1) from one that has only staged blocks (0).
                let committed = """
                    SELECT \(Self.propertyColumns), 1 FROM blobs
                    WHERE container = ?1 AND name >= ?2 AND name >= ?3 AND substr(name, 1, length(?3)) = ?3
                    """
                // A blob that has only staged blocks: its name, once, unless the blob has content.
                let uncommitted = """
                    SELECT DISTINCT blob, '', '', 0, '', '', '', '', '', '', '{}', 0 FROM blocks
                    WHERE container = ?1 AND committed = 0 AND blob >= ?2 AND blob >= ?3
                        AND substr(blob, 1, length(?3)) = ?3
                        AND NOT EXISTS (SELECT 1 FROM blobs WHERE blobs.container = ?1 AND blobs.name = blocks.blob)
                    """
                let statement = try connection.prepare(
                    (includeUncommitted ? "\(committed) UNION ALL \(uncommitted)" : committed)
                        + " ORDER BY 1 LIMIT ?4"
                )
                statement.bind(1, container)
                statement.bind(2, marker ?? "")
                statement.bind(3, prefix)
                statement.bind(4, Int64(limit + 1))
                var blobs: [BlobProperties] = []
                while try statement.step() {
                    blobs.append(
                        statement.int64(11) == 1
                            ? Self.blobProperties(statement) : .uncommitted(name: statement.text(0))
                    )
                }
                // The row after a full page is where the next page starts.
                let next = blobs.count > limit ? blobs.removeLast().name : nil
                return BlobPage(blobs: blobs, nextMarker: next)
            }
        }
    }

    package func blob(
        container: String,
        name: String,
        range: ByteRange?,
        conditions: BlobConditions
    ) async throws -> Blob? {
        // A photo is read on the caller's thread; a large blob on a reading thread, as it may take long.
        let short = try await readNow { connection in
            try Self.blob(
                container: container,
                name: name,
                range: range,
                conditions: conditions,
                upTo: Self.shortReadBytes,
                connection
            )
        }
        if let short { return short }
        return try await read { connection in
            try Self.blob(
                container: container,
                name: name,
                range: range,
                conditions: conditions,
                upTo: .max,
                connection
            ) ?? nil
        }
    }

    /// The most bytes of a blob read on the caller's thread.
    static let shortReadBytes = 1 << 20

    /// The blob, or `.some(nil)` when it does not exist; nil when more than `limit` bytes would be read.
    private static func blob(
        container: String,
        name: String,
        range: ByteRange?,
        conditions: BlobConditions,
        upTo limit: Int,
        _ connection: SQLiteConnection
    ) throws -> Blob?? {
        try connection.transaction(readOnly: true) {
            guard let properties = try Self.blobProperties(container: container, name: name, connection) else {
                return .some(nil)
            }
            try Self.check(conditions, properties, reading: true, blob: name, path: connection.path)
            let bytes = try range?.resolved(size: properties.size, account: connection.path) ?? 0..<properties.size
            guard bytes.count <= limit else { return nil }
            // substr() of a BLOB counts bytes from 1: only the range leaves the database.
            return try connection.withCached("SELECT substr(data, ?, ?) FROM blobs WHERE container = ? AND name = ?") {
                statement throws(SQLiteError) in
                statement.bind(1, Int64(bytes.lowerBound + 1))
                statement.bind(2, Int64(bytes.count))
                statement.bind(3, container)
                statement.bind(4, name)
                let data = try statement.step() ? statement.bytes(0) : []
                return Blob(properties: properties, data: data, range: bytes)
            }
        }
    }

    package func blockList(container: String, name: String) async throws -> BlockList {
        try await read { connection in
            try connection.transaction(readOnly: true) {
                try Self.requireContainer(container, connection)
                let blob = try Self.blobProperties(container: container, name: name, connection)
                let statement = try connection.prepare(
                    "SELECT block_id, size, committed FROM blocks WHERE container = ? AND blob = ? ORDER BY committed DESC, position, block_id"
                )
                statement.bind(1, container)
                statement.bind(2, name)
                var list = BlockList(committed: [], uncommitted: [], blob: blob)
                while try statement.step() {
                    let block = BlockList.Block(id: statement.text(0), size: Int(statement.int64(1)))
                    if statement.int64(2) == 1 { list.committed.append(block) } else { list.uncommitted.append(block) }
                }
                guard blob != nil || !list.uncommitted.isEmpty else {
                    throw Self.blobNotFound(container: container, name: name, connection)
                }
                return list
            }
        }
    }

    package func deleteBlob(container: String, name: String, conditions: BlobConditions) async throws {
        try await write { connection in
            try connection.transaction {
                let current = try Self.blobProperties(container: container, name: name, connection)
                guard current != nil else { throw Self.blobNotFound(container: container, name: name, connection) }
                try Self.check(conditions, current, reading: false, blob: name, path: connection.path)
                let statement = try connection.prepare("DELETE FROM blobs WHERE container = ? AND name = ?")
                statement.bind(1, container)
                statement.bind(2, name)
                try statement.run()
                try Self.dropBlocks(container: container, name: name, connection)
            }
        }
    }

    package func deleteAllBlobs(container: String) async throws {
        try await write { connection in
            let statement = try connection.prepare("DELETE FROM blobs WHERE container = ?")
            statement.bind(1, container)
            try connection.transaction {
                try statement.run()
                try Self.dropBlocks(container: container, name: nil, connection)
            }
        }
    }

    /// Blobs live in containers that exist: Azure answers 404 ContainerNotFound otherwise.
    private static func requireContainer(_ container: String, _ connection: SQLiteConnection) throws(SQLiteError) {
        let statement = try connection.prepare("SELECT 1 FROM containers WHERE name = ?")
        statement.bind(1, container)
        guard try statement.step() else { throw containerNotFound(container, connection) }
    }

    /// Sets one column of a container, with a new ETag and Last-Modified (Azure's Set Container Metadata
    /// and Set Container ACL); a missing container is ContainerNotFound. `column` is one of ours, never
    /// a caller's text.
    private static func changeContainer(
        _ container: String,
        setting column: StaticString,
        to value: String,
        _ connection: SQLiteConnection
    ) throws(SQLiteError) {
        let now = EdmDateTime.now()
        let statement = try connection.prepare(
            "UPDATE containers SET \(column) = ?, etag = ?, last_modified = ? WHERE name = ?"
        )
        statement.bind(1, value)
        statement.bind(2, blobETag(for: now))
        statement.bind(3, now.description)
        statement.bind(4, container)
        try statement.run()
        guard connection.changes > 0 else { throw containerNotFound(container, connection) }
    }

    private static func containerNotFound(_ container: String, _ connection: SQLiteConnection) -> SQLiteError {
        SQLiteError(
            path: connection.path,
            code: SQLITE_NOTFOUND,
            message: "no container '\(container)'",
            reason: .notFound,
            azureCode: "ContainerNotFound"
        )
    }

    private static func blobNotFound(container: String, name: String, _ connection: SQLiteConnection) -> SQLiteError {
        SQLiteError(
            path: connection.path,
            code: SQLITE_NOTFOUND,
            message: "no blob '\(name)' in container '\(container)'",
            reason: .notFound,
            azureCode: "BlobNotFound"
        )
    }

    /// The columns ``blobProperties(_:)`` reads, in its order.
    private static let propertyColumns =
        "name, content_type, content_md5, size, etag, last_modified, cache_control, content_disposition, content_encoding, content_language, metadata"

    private static func blobProperties(
        container: String,
        name: String,
        _ connection: SQLiteConnection
    ) throws(SQLiteError) -> BlobProperties? {
        try connection.withCached("SELECT \(propertyColumns) FROM blobs WHERE container = ? AND name = ?") {
            statement throws(SQLiteError) in
            statement.bind(1, container)
            statement.bind(2, name)
            return try statement.step() ? blobProperties(statement) : nil
        }
    }

    private static func blobProperties(_ statement: SQLiteStatement) -> BlobProperties {
        BlobProperties(
            name: statement.text(0),
            contentType: statement.text(1),
            contentMD5: statement.text(2),
            size: Int(statement.int64(3)),
            etag: statement.text(4),
            lastModified: (try? EdmDateTime(parsing: statement.text(5))) ?? .min,
            headers: BlobContentHeaders(
                cacheControl: statement.text(6),
                contentDisposition: statement.text(7),
                contentEncoding: statement.text(8),
                contentLanguage: statement.text(9)
            ),
            metadata: SQLiteMetadataColumn.decode(statement.text(10))
        )
    }

    private static func check(
        _ conditions: BlobConditions,
        _ current: BlobProperties?,
        reading: Bool,
        blob: String,
        path: String
    ) throws(StorageError) {
        try conditions.check(current, reading: reading, account: path, blob: blob)
    }

    /// Azure's strong blob ETag form: `"0x` + hex of the write time `"`.
    static func blobETag(for time: EdmDateTime) -> String {
        "\"0x" + String(UInt64(time.ticks), radix: 16, uppercase: true) + "\""
    }
}
