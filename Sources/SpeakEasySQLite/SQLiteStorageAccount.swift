internal import CSQLite
import SpeakEasyCore
import SpeakEasyModel
package import SpeakEasyStorage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The local storage account: one SQLite file holding tables of entities and blob containers.
///
/// Entities keep their typed properties as an Azure Table JSON object (minimal metadata: every type
/// JSON cannot tell is annotated), so every Edm value survives exactly and the `sqlite3` shell can
/// read it with `json_extract`.
///
/// One connection writes and a few read, each on its own thread (``SQLiteWorkers``). The file is in
/// WAL mode, so readers read the last committed state while a long write goes on; only the session
/// that creates the file uses a rollback journal, which loads a new store faster (``SQLiteStoreFile``).
package final class SQLiteStorageAccount: StorageAccount {
    package let path: String
    package var displayName: String { path }
    package var address: String { path }
    /// The account's name and the URL its blobs are served at: whoever opens the file says, since a
    /// file has no address of its own (``StorageAccount/blobURL(container:blob:)``).
    package let accountName: String
    private let blobEndpoint: String
    /// Nil when opened read-only.
    private let writer: SQLiteWorkers?
    private let readers: SQLiteWorkers
    /// Connections for short reads on the caller's thread (``readNow(_:)``).
    private let lent: SQLiteConnectionPool
    /// The next page of a query, read while the caller handles the last (``storedQuery``).
    let readAhead: SQLiteReadAhead

    /// Reading connections: enough for a reader per core beside a writer.
    static let readerCount = 2

    /// The page cache of each connection lent for point reads, in KiB: enough for the interior pages
    /// of the key index and of the table at 10,000,000 entities (about 900 pages of 16 KiB), so that
    /// a read by keys copies only the two leaves from the file. SQLite's default, 2,000 KiB, held
    /// them at 1,000,000 but not at 10,000,000, where a point read cost 1.3 times as much CPU
    /// (bench/serve-10m). The other connections keep the default: they scan, and a larger cache
    /// would only fill with leaves, in serve's resident memory.
    static let pointReadCacheKiB = 16384

    /// Opens (or, unless `readOnly`, creates) the account at `path`, checking that it is one. Its
    /// blobs are at `blobEndpoint` (ending in `/`) under the account name `accountName`.
    package init(path: String, readOnly: Bool = false, accountName: String, blobEndpoint: String) throws(StorageError) {
        self.path = path
        self.accountName = accountName
        self.blobEndpoint = blobEndpoint.hasSuffix("/") ? blobEndpoint : blobEndpoint + "/"
        do {
            try SQLiteStoreFile.checkPath(path, readOnly: readOnly)
            if readOnly { try SQLiteStoreFile.rollBackHotJournal(path) }
            // Read-only, the first connection is a reader too: a descriptor opened O_RDONLY on a store
            // that another connection of this process writes makes SQLite lock through it, which
            // fails (EBADF, "disk I/O error") when a merge runs beside another.
            let first =
                readOnly ? try Self.reader(path, olderSchema: false) : try SQLiteConnection(path: path, readOnly: false)
            let isNew = try SQLiteStoreFile.checkSchema(first, readOnly: readOnly)
            // A store of an older schema is migrated when opened for writing; read-only, its readers
            // see it through views with the newer columns (SQLiteSchema.readOnlyViewsBeforeVersion3).
            let version = try first.integer("PRAGMA user_version") ?? 0
            let olderSchema = readOnly && version < 3
            if readOnly {
                writer = nil
            } else {
                try SQLiteStoreFile.prepareForWriting(first, isNew: isNew)
                writer = SQLiteWorkers([first])
            }
            readers = SQLiteWorkers(
                try (0..<Self.readerCount).map { _ in try Self.reader(path, olderSchema: olderSchema) }
            )
            lent = SQLiteConnectionPool(
                try (0..<Self.readerCount).map { _ in
                    let connection = try Self.reader(path, olderSchema: olderSchema)
                    try connection.execute("PRAGMA cache_size = -\(Self.pointReadCacheKiB)")
                    return connection
                }
            )
            readAhead = SQLiteReadAhead(try Self.reader(path, olderSchema: olderSchema))
        } catch let error as SQLiteError {
            throw error.storageError
        } catch {
            throw StorageError(.unavailable, account: path, "\(error)")
        }
    }

    // Readers last: the connection that closes last checkpoints the WAL and removes the -wal and
    // -shm files, which a read-only connection cannot do.
    deinit {
        writer?.stop()
        lent.close()
        readAhead.stop()
        readers.stop()
    }

    /// A connection that only reads. Opened for writing where the file allows it (and told to write
    /// nothing), so that it can tidy up the WAL files when it is the last to close.
    private static func reader(_ path: String, olderSchema: Bool) throws(SQLiteError) -> SQLiteConnection {
        let connection: SQLiteConnection
        if FileSystem.isWritable(path), let writable = try? SQLiteConnection(path: path, readOnly: false, create: false)
        {
            connection = writable
            if olderSchema { try connection.execute(SQLiteSchema.readOnlyViewsBeforeVersion3) }
            try connection.execute("PRAGMA query_only = 1")
        } else {
            connection = try SQLiteConnection(
                path: path,
                readOnly: true,
                immutable: SQLiteStoreFile.needsImmutableRead(path)
            )
            if olderSchema { try connection.execute(SQLiteSchema.readOnlyViewsBeforeVersion3) }
        }
        return connection
    }

    package func blobURL(container: String, blob: String) -> String {
        blobEndpoint + container + "/" + BlobURL.escape(blob)
    }

    /// A file answers to no URL: its one name is the one its blob URLs carry.
    package func opensOnThisEndpoint(_ url: String) async -> Bool { false }

    /// Runs `body` on the writing connection.
    func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        guard let writer else { throw StorageError(.unauthorized, account: path, "the store is open for reading only") }
        return try await writer.run(body)
    }

    /// Runs `body` on a reading connection.
    func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await readers.run(body)
    }

    /// Runs `body`, a short read (a row or a few by key), on the caller's thread when a connection is
    /// idle and no lock is in the way, and on a reading thread otherwise, which waits for the lock.
    func readNow<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        do {
            if let value = try lent.withIdleConnection(body) { return value }
        } catch let error as SQLiteError {
            throw error.storageError
        }
        return try await read(body)
    }

    // MARK: Tables

    @discardableResult
    package func createTableIfNotExists(_ table: String) async throws -> Bool {
        try await write { connection in
            let statement = try connection.prepare(
                "INSERT INTO tables (name, created) SELECT ?1, ?2 WHERE NOT EXISTS (SELECT 1 FROM tables WHERE name = ?1 COLLATE NOCASE)"
            )
            statement.bind(1, table)
            statement.bind(2, EdmDateTime.now().description)
            try statement.run()
            return connection.changes == 1
        }
    }

    package func tableNames() async throws -> [String] {
        try await names("SELECT name FROM tables ORDER BY name")
    }

    /// The first column of every row of a query, as text.
    func names(_ sql: String) async throws -> [String] {
        try await read { connection in
            let statement = try connection.prepare(sql)
            var names: [String] = []
            while try statement.step() { names.append(statement.text(0)) }
            return names
        }
    }

    package func deleteTable(_ table: String) async throws {
        try await write { connection in
            try connection.transaction {
                // Table names are case-insensitive in Azure: `MYTABLE` deletes `MyTable` (one table
                // at most answers to it, since creating one checks the same way).
                let entities = try connection.prepare(
                    "DELETE FROM entities WHERE table_name = (SELECT name FROM tables WHERE name = ?1 COLLATE NOCASE)"
                )
                entities.bind(1, table)
                try entities.run()
                let policies = try connection.prepare(
                    "DELETE FROM table_policies WHERE table_name = (SELECT name FROM tables WHERE name = ?1 COLLATE NOCASE)"
                )
                policies.bind(1, table)
                try policies.run()
                let statement = try connection.prepare("DELETE FROM tables WHERE name = ?1 COLLATE NOCASE")
                statement.bind(1, table)
                try statement.run()
                // Azure answers Delete Table of a missing table with ResourceNotFound (TableNotFound is
                // for requests about its entities).
                guard connection.changes > 0 else {
                    throw Self.tableNotFound(table, path: connection.path, azureCode: "ResourceNotFound")
                }
            }
        }
    }

    package func deleteAllEntities(table: String) async throws {
        try await write { connection in
            let statement = try connection.prepare("DELETE FROM entities WHERE table_name = ?")
            statement.bind(1, table)
            try connection.transaction { try statement.run() }
        }
    }

    static func tableNotFound(_ table: String, path: String, azureCode: String = "TableNotFound") -> SQLiteError {
        SQLiteError(
            path: path,
            code: SQLITE_ERROR,
            message: "no table '\(table)'",
            reason: .notFound,
            azureCode: azureCode
        )
    }

    /// Commits are written without an fsync each (a bulk load would flush gigabytes); a dead process
    /// loses none of them. Flushing moves the WAL's commits into the database file and syncs it.
    package func flush() async throws {
        try await write { connection in
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            for file in [connection.path, connection.path + "-wal"] where FileSystem.kind(of: file) == .file {
                let fd = open(file, O_RDWR)
                guard fd >= 0 else {
                    throw SQLiteError(
                        path: connection.path,
                        code: SQLITE_IOERR,
                        message: "cannot open \(file) for fsync: \(String(cString: strerror(errno)))"
                    )
                }
                defer { close(fd) }
                guard fsync(fd) == 0 else {
                    throw SQLiteError(
                        path: connection.path,
                        code: SQLITE_IOERR,
                        message: "fsync failed: \(String(cString: strerror(errno)))"
                    )
                }
            }
        }
    }
}
