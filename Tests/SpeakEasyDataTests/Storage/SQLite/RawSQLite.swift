import CSQLite
import SpeakEasyData
import SpeakEasySQLite

/// A plain sqlite3 connection, as another process or the `sqlite3` shell would open the store.
final class RawSQLite {
    struct Failure: Error, CustomStringConvertible {
        var code: Int32
        var message: String
        var description: String { "SQLite \(code): \(message)" }
    }

    private let handle: OpaquePointer

    init(path: String) throws {
        var db: OpaquePointer?
        let result = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard result == SQLITE_OK, let db else {
            sqlite3_close_v2(db)
            throw Failure(code: result, message: "cannot open \(path)")
        }
        handle = db
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        let result = sqlite3_exec(handle, sql, nil, nil, nil)
        guard result == SQLITE_OK else { throw Failure(code: result, message: String(cString: sqlite3_errmsg(handle))) }
    }

    /// Every row of a query, each column as text (nil for NULL).
    func rows(_ sql: String) throws -> [[String?]] {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard prepared == SQLITE_OK, let statement else {
            throw Failure(code: prepared, message: String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[String?]] = []
        while true {
            let result = sqlite3_step(statement)
            if result == SQLITE_DONE { return rows }
            guard result == SQLITE_ROW else {
                throw Failure(code: result, message: String(cString: sqlite3_errmsg(handle)))
            }
            rows.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    sqlite3_column_text(statement, column).map { String(cString: $0) }
                }
            )
        }
    }

    /// The first column of every row.
    func strings(_ sql: String) throws -> [String?] { try rows(sql).map { $0.first ?? nil } }
}

/// A fresh store in a fresh temporary directory, for one test, with the tables the tests write to
/// (as on Azure, a write to a table that does not exist is TableNotFound).
func withStore<T>(
    tables: [String] = ["t", "one", "two"],
    _ body: (SQLiteStorageAccount, String) async throws -> T
) async throws -> T {
    try await withTemporaryDirectory { directory in
        let path = directory + "/speakeasy.sqlite"
        let store = try SQLiteStorageAccount(path: path)
        for table in tables { try await store.createTableIfNotExists(table) }
        return try await body(store, path)
    }
}
