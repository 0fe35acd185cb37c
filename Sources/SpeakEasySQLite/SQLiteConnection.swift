internal import CSQLite
import SpeakEasyCore
import SpeakEasyStorage

/// One open SQLite database. Not thread-safe: one thread uses it at a time (``SQLiteWorkers``).
final class SQLiteConnection {
    let path: String
    private(set) var handle: OpaquePointer
    /// Statements kept prepared (``withCached(_:_:)``), by their SQL.
    private var statements: [String: SQLiteStatement] = [:]

    /// How long every connection waits for another's lock before the store is "locked by another
    /// process". Under the creating session's rollback journal a commit waits for the readers'
    /// transactions (a page each) to end: 2 s was too short for a page read on a loaded machine,
    /// and a seed beside a `validate` failed its write (SQLiteJournalTests, under ThreadSanitizer).
    static let busyTimeoutMilliseconds: Int32 = 10_000

    /// SQLite's process-wide settings, made once before the first connection opens.
    private static let configured: Void = { _ = csqlite_disable_memory_statistics() }()

    /// `immutable` opens the file read-only as one that nothing changes (SQLite's `immutable=1`): no
    /// locks and no `-shm` file, for a WAL store in a directory where this user may create neither.
    init(path: String, readOnly: Bool, create: Bool = true, immutable: Bool = false) throws(SQLiteError) {
        _ = Self.configured
        self.path = path
        var db: OpaquePointer?
        var flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        var name = path
        if immutable {
            flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            name = "file:" + PercentEncoding.encodePath(FileSystem.absolute(path)) + "?immutable=1"
        }
        let result = sqlite3_open_v2(name, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard result == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(result))
            sqlite3_close_v2(db)
            throw SQLiteError(path: path, code: result & 0xFF, message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 0)
        sqlite3_busy_timeout(db, Self.busyTimeoutMilliseconds)
    }

    /// How long this connection waits for another's lock before its statement fails with
    /// `SQLITE_BUSY`; 0 fails at once.
    func waitForLocks(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    deinit {
        // Finalised first, so that the connection really closes now (and, if last, tidies the WAL).
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(path: path, code: code & 0xFF, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw error(result) }
    }

    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// Runs `body` with a statement prepared once and kept for the connection's life, then resets it
    /// (a statement left stepping would hold its read snapshot). For the statements every request
    /// runs, where preparing costs as much as running; `body` must not use the same SQL again.
    func withCached<T>(_ sql: String, _ body: (SQLiteStatement) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        let statement: SQLiteStatement
        if let kept = statements[sql] {
            statement = kept
        } else {
            statement = try prepare(sql)
            statements[sql] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT` (a write), or `BEGIN … COMMIT` (reads that must
    /// see one state), rolling back when it throws.
    func transaction<T>(readOnly: Bool = false, _ body: () throws -> T) throws -> T {
        try runCached(readOnly ? "BEGIN" : "BEGIN IMMEDIATE")
        do {
            let value = try body()
            try runCached("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs a statement that takes no parameters and returns no rows, kept prepared.
    private func runCached(_ sql: String) throws(SQLiteError) {
        try withCached(sql) { statement throws(SQLiteError) in try statement.run() }
    }

    /// The first column of the first row of a query, as an integer.
    func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(0) : nil
    }

    var changes: Int { Int(sqlite3_changes(handle)) }
}

/// A prepared statement, reset and re-bound for every row of a batch.
final class SQLiteStatement {
    private unowned let connection: SQLiteConnection
    private let handle: OpaquePointer

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        self.connection = connection
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else { throw connection.error(result) }
        handle = statement
    }

    deinit { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bindText(index, $0) }
    }

    /// Binds UTF-8 bytes as TEXT without copying them into a String first.
    func bindText(_ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { bindText(index, $0) }
    }

    /// Binds `bytes` as TEXT without SQLite copying them, then runs the statement: the binding
    /// only lives while the bytes are pinned (a bulk load saves a copy of every row).
    func runBindingText(_ index: Int32, _ bytes: [UInt8]) throws(SQLiteError) {
        let result: Result<Void, SQLiteError> = bytes.withUnsafeBufferPointer { buffer in
            bindText(index, buffer, destructor: csqlite_static())
            defer { reset() }
            return Result { () throws(SQLiteError) in try run() }
        }
        try result.get()
    }

    private func bindText(
        _ index: Int32,
        _ buffer: UnsafeBufferPointer<UInt8>,
        destructor: sqlite3_destructor_type? = csqlite_transient()
    ) {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
            return
        }
        base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
            _ = sqlite3_bind_text(handle, index, $0, Int32(buffer.count), destructor)
        }
    }

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }
    /// Binds text, or NULL for nil (a reset statement keeps its bindings, so nil must be bound too).
    func bindOptional(_ index: Int32, _ text: String?) {
        if let text { bind(index, text) } else { sqlite3_bind_null(handle, index) }
    }

    func bindBlob(_ index: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            _ = sqlite3_bind_blob64(
                handle,
                index,
                buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                sqlite3_uint64(buffer.count),
                csqlite_transient()
            )
        }
    }

    /// Binds `bytes` as a BLOB without SQLite copying them, then runs the statement: the binding only
    /// lives while the bytes are pinned (a blob's content is then held once on its way to the file).
    func runBindingBlob(_ index: Int32, _ bytes: [UInt8]) throws(SQLiteError) {
        let result: Result<Void, SQLiteError> = bytes.withUnsafeBytes { buffer in
            _ = sqlite3_bind_blob64(
                handle,
                index,
                buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                sqlite3_uint64(buffer.count),
                csqlite_static()
            )
            defer { reset() }
            return Result { () throws(SQLiteError) in try run() }
        }
        try result.get()
    }

    /// Steps once; true when a row is available.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(result)
        }
    }

    /// Steps to completion, then resets for the next use.
    func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    /// The column's text; nil for NULL.
    func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// Runs `body` on a text column's UTF-8 bytes in place, valid only during the call.
    func withText<T, E: Error>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        let pointer = sqlite3_column_text(handle, column)
        let count = Int(sqlite3_column_bytes(handle, column))
        return try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    /// A text column's UTF-8 bytes in place, with no copy: valid until the statement steps or is
    /// reset, or the column is read as another type. Empty for NULL.
    func textInPlace(_ column: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_text(handle, column)
        return UnsafeRawBufferPointer(
            start: pointer,
            count: pointer == nil ? 0 : Int(sqlite3_column_bytes(handle, column))
        )
    }

    /// A blob column's bytes in place, with the same lifetime as ``textInPlace(_:)``.
    func blobInPlace(_ column: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_blob(handle, column)
        return UnsafeRawBufferPointer(
            start: pointer,
            count: pointer == nil ? 0 : Int(sqlite3_column_bytes(handle, column))
        )
    }

    func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }
}
