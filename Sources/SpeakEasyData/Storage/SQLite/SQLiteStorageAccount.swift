internal import CSQLite
internal import Crypto

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The local storage account: one SQLite file holding tables of entities and blob containers.
///
/// Entities keep their typed properties as an Azure Table JSON object (minimal metadata: every type
/// JSON cannot tell is annotated), so every Edm value survives exactly and the `sqlite3` shell can
/// read it with `json_extract`. Every write is one transaction.
package actor SQLiteStorageAccount: StorageAccount {
    package nonisolated let path: String
    package nonisolated var displayName: String { path }
    private let connection: SQLiteConnection

    /// Blob URLs of the local account use Azurite's path style with this account name.
    package static let accountName = "speakeasy"
    package static let blobEndpoint = "http://127.0.0.1:10000/" + accountName + "/"

    /// Opens (or, unless `readOnly`, creates) the account at `path`, checking that it is one.
    package init(path: String, readOnly: Bool = false) throws(SQLiteError) {
        self.path = path
        try Self.checkPath(path, readOnly: readOnly)
        if readOnly { try Self.rollBackHotJournal(path) }
        let connection = try SQLiteConnection(path: path, readOnly: readOnly)
        self.connection = connection
        try connection.execute("PRAGMA busy_timeout = 2000")
        let applicationID = try connection.integer("PRAGMA application_id") ?? 0
        let objects = try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
        guard applicationID == SQLiteSchema.applicationID || (applicationID == 0 && objects == 0) else {
            throw Self.notAStore(path, "an SQLite database of something else")
        }
        // An empty database (no schema yet) holds nothing to read; seed makes it a store.
        if readOnly, applicationID == 0 { throw Self.noStore(path, "(an empty database)") }
        let version = try connection.integer("PRAGMA user_version") ?? 0
        guard version <= SQLiteSchema.version else {
            throw Self.notAStore(path, "made by a newer version of this toolkit (schema \(version))")
        }
        guard !readOnly else { return }
        // 16 KiB pages keep a ~1.5 KB event row on its page instead of spilling to an overflow page
        // (only takes effect on a new file).
        if applicationID == 0 { try connection.execute("PRAGMA page_size = 16384") }
        // A rollback journal: a killed process leaves every batch either committed or rolled back on
        // the next open. Commits are not fsynced one by one (each would flush gigabytes during a bulk
        // load); flush() makes everything durable at the end of a run.
        try connection.execute("PRAGMA journal_mode = DELETE; PRAGMA synchronous = OFF; PRAGMA cache_size = -8192")
        if applicationID == 0 {
            do {
                try connection.transaction {
                    try connection.execute(SQLiteSchema.create)
                    try connection.execute("PRAGMA application_id = \(SQLiteSchema.applicationID); PRAGMA user_version = \(SQLiteSchema.version)")
                }
            } catch let error as SQLiteError {
                throw error
            } catch {
                throw SQLiteError(path: path, code: SQLITE_ERROR, message: "\(error)")
            }
        }
    }

    /// Catches what SQLite would report vaguely, in the words every tool uses for the fault: a path
    /// that holds something other than a store (65), no store to read (66), no store to create (73).
    private static func checkPath(_ path: String, readOnly: Bool) throws(SQLiteError) {
        switch FileSystem.kind(of: path) {
        case .directory: throw notAStore(path, "it is a directory")
        case .other: throw notAStore(path, "it is not a regular file")
        case .missing:
            guard !readOnly else { throw noStore(path) }
            if let problem = FileSystem.creationProblem(at: path) { throw SQLiteError(path: path, code: SQLITE_CANTOPEN, message: problem) }
        case .file:
            let header = FileSystem.readPrefix(path, count: 16) ?? []
            if header.isEmpty, readOnly { throw noStore(path, "(an empty file)") }
            if !header.isEmpty, !header.elementsEqual(Array("SQLite format 3".utf8) + [0]) { throw notAStore(path, "not an SQLite database") }
            if !readOnly, !FileSystem.isWritable(path) {
                throw SQLiteError(path: path, code: SQLITE_READONLY, message: "no write permission")
            }
        }
    }

    /// Something is at the path, but not a SpeakEasy storage account.
    private static func notAStore(_ path: String, _ why: String) -> SQLiteError {
        SQLiteError(path: path, code: SQLITE_NOTADB, message: "not a storage account: " + why)
    }

    /// Nothing to read at the path; `seed` makes a store.
    private static func noStore(_ path: String, _ detail: String = "") -> SQLiteError {
        SQLiteError(path: path, code: SQLITE_NOTFOUND, message: "no storage account here\(detail.isEmpty ? "" : " " + detail); run seed first, or name one with --store")
    }

    /// A process killed mid-transaction leaves a journal that the next opener must roll back, which a
    /// read-only connection cannot do. Rolling back only restores the last committed state — what
    /// any reader would see — so do it with a short-lived writable connection when we may write.
    private static func rollBackHotJournal(_ path: String) throws(SQLiteError) {
        guard (FileSystem.size(of: path + "-journal") ?? 0) > 0, FileSystem.isWritable(path) else { return }
        let recovery = try SQLiteConnection(path: path, readOnly: false)
        try recovery.execute("PRAGMA busy_timeout = 2000; SELECT count(*) FROM sqlite_master")
    }

    package nonisolated func blobURL(container: String, blob: String) -> String {
        Self.blobEndpoint + container + "/" + BlobURL.escape(blob)
    }

    // MARK: Tables

    package func createTableIfNotExists(_ table: String) throws {
        let statement = try connection.prepare("INSERT INTO tables (name, created) VALUES (?, ?) ON CONFLICT DO NOTHING")
        statement.bind(1, table)
        statement.bind(2, EdmDateTime.now().description)
        try statement.run()
    }

    package func tableNames() throws -> [String] {
        let statement = try connection.prepare("SELECT name FROM tables ORDER BY name")
        var names: [String] = []
        while try statement.step() { names.append(statement.text(0)) }
        return names
    }

    package func entityCounts(table: String) throws -> [String: Int] {
        let statement = try connection.prepare("SELECT partition_key, count(*) FROM entities WHERE table_name = ? GROUP BY partition_key")
        statement.bind(1, table)
        var counts: [String: Int] = [:]
        while try statement.step() { counts[statement.text(0)] = Int(statement.int64(1)) }
        return counts
    }

    package func deleteAllEntities(table: String) throws {
        let statement = try connection.prepare("DELETE FROM entities WHERE table_name = ?")
        statement.bind(1, table)
        try connection.transaction { try statement.run() }
    }

    package func write(_ entities: [EncodedEntity], table: String, mode: WriteMode) throws -> WriteOutcome {
        let now = EdmDateTime.now()
        let timestamp = now.description
        let etag = Self.etag(for: now)
        let insert = try connection.prepare(
            "INSERT INTO entities (table_name, partition_key, row_key, timestamp, etag, properties) VALUES (?, ?, ?, ?, ?, ?)"
                + (mode == .insertOrSkip ? " ON CONFLICT DO NOTHING" : ""))
        let lookup = try connection.prepare("SELECT properties FROM entities WHERE table_name = ? AND partition_key = ? AND row_key = ?")
        let update = try connection.prepare(
            "UPDATE entities SET timestamp = ?, etag = ?, properties = ? WHERE table_name = ? AND partition_key = ? AND row_key = ?")
        // Key order turns random index inserts into one sweep over the index pages: much fewer cache misses.
        let ordered = entities.sorted { ($0.partitionKey, $0.rowKey) < ($1.partitionKey, $1.rowKey) }
        return try connection.transaction {
            var outcome = WriteOutcome()
            for entity in ordered {
                var json = entity.properties
                if mode == .insertOrReplace || mode == .insertOrMerge {
                    lookup.bind(1, table)
                    lookup.bind(2, entity.partitionKey)
                    lookup.bind(3, entity.rowKey)
                    let existing = try lookup.step() ? lookup.text(0) : nil
                    lookup.reset()
                    if let existing {
                        if mode == .insertOrMerge {
                            let old = try decodeProperties(existing, partitionKey: entity.partitionKey, rowKey: entity.rowKey)
                            let new = try decodeProperties(String(decoding: json, as: UTF8.self), partitionKey: entity.partitionKey, rowKey: entity.rowKey)
                            let merged = Entity(partitionKey: "", rowKey: "", properties: old).merging(Entity(partitionKey: "", rowKey: "", properties: new))
                            json = []
                            JSONEntityWriter.appendPropertiesObject(merged.properties, to: &json)
                        }
                        if existing.utf8.elementsEqual(json) {
                            outcome.unchanged += 1
                            continue
                        }
                        update.bind(1, timestamp)
                        update.bind(2, etag)
                        update.bindText(3, json)
                        update.bind(4, table)
                        update.bind(5, entity.partitionKey)
                        update.bind(6, entity.rowKey)
                        try update.run()
                        outcome.updated += 1
                        continue
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
                        path: path, code: SQLITE_CONSTRAINT,
                        message: "entity (PartitionKey '\(entity.partitionKey)', RowKey '\(entity.rowKey)') already exists in table \(table)")
                }
                if connection.changes > 0 { outcome.inserted += 1 } else { outcome.unchanged += 1 }
            }
            return outcome
        }
    }

    /// One page of a scan in key order. Only the conditions that apply, each matching the key index
    /// exactly, so SQLite seeks straight to the resume point and reads the index in order: no
    /// `?3 IS NULL OR …` (a scan from the table's start) and, within a partition, no row-value
    /// comparison (which would sort everything after the resume point on every page).
    package static func pageQuery(partition: Bool, resuming: Bool) -> String {
        var conditions = "table_name = ?1"
        if partition { conditions += " AND partition_key = ?2" }
        if resuming { conditions += partition ? " AND row_key > ?4" : " AND (partition_key, row_key) > (?3, ?4)" }
        return """
            SELECT partition_key, row_key, timestamp, etag, properties FROM entities
            WHERE \(conditions) ORDER BY table_name, partition_key, row_key LIMIT ?5
            """
    }

    package func entities(table: String, partition: String?, after: ContinuationToken?, limit: Int) throws -> (entities: [Entity], next: ContinuationToken?) {
        let statement = try connection.prepare(Self.pageQuery(partition: partition != nil, resuming: after != nil))
        statement.bind(1, table)
        if let partition { statement.bind(2, partition) }
        if let after {
            if partition == nil { statement.bind(3, after.partitionKey) }
            statement.bind(4, after.rowKey)
        }
        statement.bind(5, Int64(limit))
        var page: [Entity] = []
        while try statement.step() { page.append(try entity(from: statement)) }
        let next = page.count == limit ? page.last.map { ContinuationToken(partitionKey: $0.partitionKey, rowKey: $0.rowKey) } : nil
        return (page, next)
    }

    package func entity(table: String, partitionKey: String, rowKey: String) throws -> Entity? {
        let statement = try connection.prepare(
            "SELECT partition_key, row_key, timestamp, etag, properties FROM entities WHERE table_name = ? AND partition_key = ? AND row_key = ?")
        statement.bind(1, table)
        statement.bind(2, partitionKey)
        statement.bind(3, rowKey)
        return try statement.step() ? try entity(from: statement) : nil
    }

    private func entity(from statement: SQLiteStatement) throws -> Entity {
        let partitionKey = statement.text(0), rowKey = statement.text(1)
        return Entity(
            partitionKey: partitionKey, rowKey: rowKey, timestamp: try? EdmDateTime(parsing: statement.text(2)), etag: statement.text(3),
            properties: try decodeProperties(statement.text(4), partitionKey: partitionKey, rowKey: rowKey))
    }

    private func decodeProperties(_ json: String, partitionKey: String, rowKey: String) throws(SQLiteError) -> [Property] {
        do {
            return try JSONEntityReader.properties(fromObject: Array(json.utf8))
        } catch {
            throw SQLiteError(
                path: path, code: SQLITE_CORRUPT,
                message: "entity (PartitionKey '\(partitionKey)', RowKey '\(rowKey)') has malformed properties: \(error)")
        }
    }

    /// Azure's weak ETag form, derived from the write time.
    static func etag(for time: EdmDateTime) -> String {
        "W/\"datetime'" + time.description.replacing(":", with: "%3A") + "'\""
    }

    package func flush() throws {
        let fd = open(path, O_RDWR)
        guard fd >= 0 else { throw SQLiteError(path: path, code: SQLITE_IOERR, message: "cannot open for fsync: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw SQLiteError(path: path, code: SQLITE_IOERR, message: "fsync failed: \(String(cString: strerror(errno)))") }
    }

    // MARK: Blobs

    package func createContainerIfNotExists(_ container: String, access: ContainerAccess) throws {
        let now = EdmDateTime.now()
        let statement = try connection.prepare(
            "INSERT INTO containers (name, public_access, etag, last_modified) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
        statement.bind(1, container)
        statement.bind(2, access.rawValue)
        statement.bind(3, Self.blobETag(for: now))
        statement.bind(4, now.description)
        try statement.run()
    }

    package func containerAccess(_ container: String) throws -> ContainerAccess? {
        let statement = try connection.prepare("SELECT public_access FROM containers WHERE name = ?")
        statement.bind(1, container)
        return try statement.step() ? ContainerAccess(rawValue: statement.text(0)) : nil
    }

    package func putBlob(container: String, name: String, contentType: String, data: [UInt8]) throws -> Bool {
        let md5 = Base64.encode(Array(Insecure.MD5.hash(data: data)))
        let existing = try connection.prepare("SELECT 1 FROM blobs WHERE container = ? AND name = ? AND content_md5 = ? AND content_type = ?")
        existing.bind(1, container)
        existing.bind(2, name)
        existing.bind(3, md5)
        existing.bind(4, contentType)
        if try existing.step() { return false }
        let now = EdmDateTime.now()
        let statement = try connection.prepare(
            """
            INSERT INTO blobs (container, name, content_type, content_md5, size, etag, last_modified, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO UPDATE SET content_type = excluded.content_type, content_md5 = excluded.content_md5, size = excluded.size,
                etag = excluded.etag, last_modified = excluded.last_modified, data = excluded.data
            """)
        statement.bind(1, container)
        statement.bind(2, name)
        statement.bind(3, contentType)
        statement.bind(4, md5)
        statement.bind(5, Int64(data.count))
        statement.bind(6, Self.blobETag(for: now))
        statement.bind(7, now.description)
        statement.bindBlob(8, data)
        try statement.run()
        return true
    }

    package func blobProperties(container: String) throws -> [BlobProperties] {
        let statement = try connection.prepare(
            "SELECT name, content_type, content_md5, size, etag, last_modified FROM blobs WHERE container = ? ORDER BY name")
        statement.bind(1, container)
        var blobs: [BlobProperties] = []
        while try statement.step() {
            blobs.append(
                BlobProperties(
                    name: statement.text(0), contentType: statement.text(1), contentMD5: statement.text(2), size: Int(statement.int64(3)),
                    etag: statement.text(4), lastModified: (try? EdmDateTime(parsing: statement.text(5))) ?? .min))
        }
        return blobs
    }

    package func blobData(container: String, name: String) throws -> [UInt8]? {
        let statement = try connection.prepare("SELECT data FROM blobs WHERE container = ? AND name = ?")
        statement.bind(1, container)
        statement.bind(2, name)
        return try statement.step() ? statement.bytes(0) : nil
    }

    package func deleteAllBlobs(container: String) throws {
        let statement = try connection.prepare("DELETE FROM blobs WHERE container = ?")
        statement.bind(1, container)
        try connection.transaction { try statement.run() }
    }

    /// Azure's strong blob ETag form: `"0x` + hex of the write time `"`.
    static func blobETag(for time: EdmDateTime) -> String {
        "\"0x" + String(UInt64(time.ticks), radix: 16, uppercase: true) + "\""
    }
}
