import CLISupport
import SpeakEasyData
import SpeakEasySQLite
import TestSupport
import Testing

/// Another process holding the write lock: the store waits its busy timeout (10 s), then reports the
/// store as unavailable rather than failing obscurely.
@Suite("SQLite storage account: a database locked by another connection")
struct SQLiteLockingTests {
    @Test("opening a database another connection holds exclusively is 'storage unavailable'")
    func openLocked() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/locked.sqlite"
            let other = try RawSQLite(path: path)
            try other.execute("BEGIN EXCLUSIVE")
            let error = #expect(throws: StorageError.self) { try SQLiteStorageAccount(path: path) }
            #expect(error.map { ExitStatus.kind(of: $0.reason) } == .storageUnavailable, "\(String(describing: error))")
            #expect(error?.description.contains("locked") == true)
            try other.execute("COMMIT")
            let store = try SQLiteStorageAccount(path: path)
            #expect(try await store.entityCounts(table: "t").isEmpty)
        }
    }

    @Test("writing while another connection is writing is 'storage unavailable'; reading still works")
    func writeLocked() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            do {
                let store = try SQLiteStorageAccount(path: path)
                try await store.createTableIfNotExists("t")
                try await store.write([Entity(partitionKey: "p", rowKey: "a")], table: "t", mode: .insert)
            }
            _ = try SQLiteStorageAccount(path: path)  // opened again: now in WAL mode
            // Another writer (a reserved lock): readers still read.
            let other = try RawSQLite(path: path)
            try other.execute("BEGIN IMMEDIATE")
            let store = try SQLiteStorageAccount(path: path)
            #expect(try await store.entityCounts(table: "t") == ["p": 1])
            let error = await #expect(throws: StorageError.self) {
                try await store.write([Entity(partitionKey: "p", rowKey: "b")], table: "t", mode: .insert)
            }
            #expect(error.map { ExitStatus.kind(of: $0.reason) } == .storageUnavailable, "\(String(describing: error))")
            try other.execute("COMMIT")
            try await store.write([Entity(partitionKey: "p", rowKey: "b")], table: "t", mode: .insert)
            #expect(try await store.entityCounts(table: "t") == ["p": 2])
        }
    }
}
