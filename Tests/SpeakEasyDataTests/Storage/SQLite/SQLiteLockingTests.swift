import CLISupport
import SpeakEasyData
import TestSupport
import Testing

@testable import SpeakEasySQLite

/// Another process holding the write lock: the store waits its busy timeout (10 s), then reports the
/// store as unavailable rather than failing obscurely. A point read waits too, but never on the
/// calling thread, which in a server is an event loop that other clients share.
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

    @Test("a point read that meets a lock leaves the calling thread at once, and is read once the lock is gone")
    func pointReadMeetingALock() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            // A new store: the session that creates it keeps a rollback journal, where readers wait
            // while another connection holds the exclusive lock of a commit.
            let store = try SQLiteStorageAccount(path: path)
            try await store.createTableIfNotExists("t")
            try await store.write([Entity(partitionKey: "p", rowKey: "a")], table: "t", mode: .insert)
            let other = try RawSQLite(path: path)
            try other.execute("BEGIN EXCLUSIVE")

            // A lent connection reports the lock instead of waiting for it, where the others wait
            // their busy timeout (10 s): half of that is a bound no loaded machine comes near.
            let lent = SQLiteConnectionPool([try SQLiteConnection(path: path, readOnly: true)])
            let clock = ContinuousClock()
            let start = clock.now
            #expect(try lent.withIdleConnection { try $0.integer("SELECT count(*) FROM entities") } == nil)
            #expect(clock.now - start < .seconds(SQLiteConnection.busyTimeoutMilliseconds / 2_000))

            // Through the store, the read goes to a reading thread, which waits for the lock.
            let read = Task { try await store.lookUpEntity(table: "t", partitionKey: "p", rowKey: "a") }
            try await Task.sleep(for: .milliseconds(200))
            try other.execute("COMMIT")
            #expect(try await read.value.entity?.rowKey == "a")
            #expect(try lent.withIdleConnection { try $0.integer("SELECT count(*) FROM entities") } == 1)
        }
    }
}
