internal import CSQLite
import SpeakEasyCore
import SpeakEasyStorage

/// Checks that a path holds a local account (or may become one), and readies its file.
///
/// Catches what SQLite would report vaguely, in the words every tool uses for the fault: a path that
/// holds something other than a store (65), no store to read (66), no store to create (73).
enum SQLiteStoreFile {
    static func checkPath(_ path: String, readOnly: Bool) throws(SQLiteError) {
        switch FileSystem.kind(of: path) {
        case .directory: throw notAStore(path, "it is a directory")
        case .other: throw notAStore(path, "it is not a regular file")
        case .missing:
            guard !readOnly else { throw noStore(path) }
            if let problem = FileSystem.creationProblem(at: path) {
                throw SQLiteError(path: path, code: SQLITE_CANTOPEN, message: problem)
            }
        case .file:
            // Without this, an unreadable file reads as no bytes, and would be called empty.
            guard FileSystem.isReadable(path) else {
                throw SQLiteError(
                    path: path,
                    code: SQLITE_PERM,
                    message: "cannot read it: Permission denied",
                    reason: .notFound
                )
            }
            let header = FileSystem.readPrefix(path, count: 16) ?? []
            if header.isEmpty, readOnly { throw noStore(path, "(an empty file)") }
            if !header.isEmpty, !header.elementsEqual(Array("SQLite format 3".utf8) + [0]) {
                throw notAStore(path, "not an SQLite database")
            }
            if !readOnly, !FileSystem.isWritable(path) {
                throw SQLiteError(path: path, code: SQLITE_READONLY, message: "no write permission")
            }
        }
    }

    /// Checks the schema's marks; true when the database is new (no schema yet).
    static func checkSchema(_ connection: SQLiteConnection, readOnly: Bool) throws(SQLiteError) -> Bool {
        let path = connection.path
        let applicationID = try connection.integer("PRAGMA application_id") ?? 0
        let objects = try connection.integer("SELECT count(*) FROM sqlite_master") ?? 0
        guard applicationID == SQLiteSchema.applicationID || (applicationID == 0 && objects == 0) else {
            throw notAStore(path, "an SQLite database of something else")
        }
        // An empty database (no schema yet) holds nothing to read; seed makes it a store.
        if readOnly, applicationID == 0 { throw noStore(path, "(an empty database)") }
        // Ours, but without the tables every version has: damaged, not something SQLite can tell later
        // as "no such table" (74), nor a store to serve.
        if applicationID == SQLiteSchema.applicationID {
            let present = try connection.integer(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('tables', 'entities')"
            )
            guard present == 2 else {
                throw SQLiteError(
                    path: path,
                    code: SQLITE_CORRUPT,
                    message: "a damaged storage account: its tables are missing",
                    reason: .corrupt
                )
            }
        }
        let version = try connection.integer("PRAGMA user_version") ?? 0
        guard version <= SQLiteSchema.version else {
            throw SQLiteError(
                path: path,
                code: SQLITE_NOTADB,
                message: "made by a newer version of this toolkit (schema \(version)); use that version",
                reason: .corrupt
            )
        }
        return applicationID == 0
    }

    /// Sets the writing connection up, creates the schema in a new database, and adds what a store of
    /// an earlier schema lacks.
    static func prepareForWriting(_ connection: SQLiteConnection, isNew: Bool) throws {
        // 16 KiB pages. A point read copies two pages from the file (the key index's and the row's),
        // and with 64 KiB pages that copying was a seventh of a served point read (85 µs against 77
        // for 16 KiB), while a 1M-event seed took only 3% less time (8.0 s against 8.2 s). A served
        // partition query and batch inserts were also faster with 16 KiB (bench/serve, both stores in
        // one run). Only takes effect on a new file.
        if isNew { try connection.execute("PRAGMA page_size = 16384") }
        // Either journal leaves every transaction committed or not when the process is killed, and
        // commits are not fsynced one by one (each would flush gigabytes during a bulk load); flush()
        // makes everything durable at the end of a run.
        // - A store opened again: WAL, so readers keep reading the last commit while a write goes on.
        // - The session that creates the store: a rollback journal. Its writes append pages to the
        //   file, which a rollback journal need not copy, while WAL writes every page twice (to the
        //   WAL, then back into the file): a 1M-event seed into a new store is ~15% faster. Readers
        //   wait only while a commit writes (busy_timeout), and the next open switches to WAL.
        try connection.execute(
            "PRAGMA journal_mode = \(isNew ? "DELETE" : "WAL"); PRAGMA synchronous = OFF; PRAGMA cache_size = -8192"
        )
        let version = try connection.integer("PRAGMA user_version") ?? 0
        guard isNew || version < SQLiteSchema.version else { return }
        try connection.transaction {
            // `create` skips tables that exist, so what changed since goes in by hand around it.
            let blobTables = try connection.integer("SELECT count(*) FROM sqlite_master WHERE name = 'blobs'") ?? 0
            let migrating = !isNew && version < 3 && blobTables > 0
            if migrating { try connection.execute(SQLiteSchema.addedInVersion3) }
            try connection.execute(SQLiteSchema.create)
            if migrating { try connection.execute(SQLiteSchema.movedInVersion3) }
            try connection.execute(
                "PRAGMA application_id = \(SQLiteSchema.applicationID); PRAGMA user_version = \(SQLiteSchema.version)"
            )
        }
    }

    /// Something is at the path, but not a SpeakEasy storage account.
    static func notAStore(_ path: String, _ why: String) -> SQLiteError {
        SQLiteError(path: path, code: SQLITE_NOTADB, message: "not a storage account: " + why, reason: .corrupt)
    }

    /// Whether a store can be read only as an immutable file: it is in WAL mode (its header's write
    /// version is 2), it has no `-wal` file (everything is in the file itself), and this user may
    /// create none, nor the `-shm` file SQLite's readers share, in its directory. A reader of a WAL
    /// store needs that `-shm` file, and SQLite would say the store is read-only; nobody can write
    /// the store there either, so reading it as it is loses nothing.
    static func needsImmutableRead(_ path: String) -> Bool {
        guard let header = FileSystem.readPrefix(path, count: 20), header.count == 20, header[18] == 2 else {
            return false
        }
        let exists = { (suffix: String) in FileSystem.kind(of: path + suffix) != .missing }
        return !exists("-wal") && !exists("-shm") && !FileSystem.isWritable(FileSystem.directory(of: path))
    }

    /// Nothing to read at the path; `seed` makes a store.
    static func noStore(_ path: String, _ detail: String = "") -> SQLiteError {
        SQLiteError(
            path: path,
            code: SQLITE_NOTFOUND,
            message: "no storage account here\(detail.isEmpty ? "" : " " + detail)",
            reason: .notFound,
            toolAdvice: "; run seed first, or name one with --store"
        )
    }

    /// A process killed mid-transaction under a rollback journal (the mode stores had before WAL)
    /// leaves a journal that the next opener must roll back, which a read-only connection cannot do.
    /// Rolling back only restores the last committed state — what any reader would see — so do it
    /// with a short-lived writable connection when we may write.
    static func rollBackHotJournal(_ path: String) throws(SQLiteError) {
        guard (FileSystem.size(of: path + "-journal") ?? 0) > 0, FileSystem.isWritable(path) else { return }
        let recovery = try SQLiteConnection(path: path, readOnly: false)
        try recovery.execute("SELECT count(*) FROM sqlite_master")
    }
}
