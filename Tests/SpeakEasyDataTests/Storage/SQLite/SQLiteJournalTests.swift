import Glibc
import SpeakEasyData
import SpeakEasySQLite
import Testing

/// The store's journal: the session that creates a store loads it under a rollback journal (each new
/// page written once), and every later session uses WAL (reads go on during a write). The WAL's
/// files live only while a tool has the store open: the connection that closes last folds the WAL
/// back into the database and removes them, which it can do only when no other connection is
/// closing at the same moment.
@Suite("SQLite storage account: journals")
struct SQLiteJournalTests {
    static func leftovers(_ path: String) -> [String] {
        [path + "-wal", path + "-shm", path + "-journal"].filter { access($0, F_OK) == 0 }
    }

    /// The journal mode the database file's header records: byte 18 is 1 for a rollback journal
    /// and 2 for WAL (sqlite.org/fileformat.html, "File format version numbers").
    static func headerJournal(_ path: String) throws -> String {
        let file = try #require(fopen(path, "rb"))
        defer { fclose(file) }
        var header = [UInt8](repeating: 0, count: 20)
        #expect(fread(&header, 1, 20, file) == 20)
        switch header[18] {
        case 1: return "rollback"
        case 2: return "wal"
        default: return "unknown \(header[18])"
        }
    }

    static func rows(_ count: Int, from start: Int = 0) -> [Entity] {
        (start..<start + count).map {
            Entity(partitionKey: "p", rowKey: String(1_000_000 + $0), properties: [Property("N", .int32(Int32($0)))])
        }
    }

    @Test("a new store is loaded under a rollback journal, and opens in WAL from then on")
    func journalModes() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            do {
                let store = try SQLiteStorageAccount(path: path)
                try await store.createTableIfNotExists("t")
                try await store.write(Self.rows(100), table: "t", mode: .insert)
                #expect(access(path + "-wal", F_OK) != 0, "the creating session writes no WAL")
            }
            #expect(try Self.headerJournal(path) == "rollback")
            do {
                let store = try SQLiteStorageAccount(path: path)
                try await store.write(Self.rows(100, from: 100), table: "t", mode: .insert)
                #expect(access(path + "-wal", F_OK) == 0, "a later session writes to the WAL")
            }
            #expect(try Self.headerJournal(path) == "wal")
            let store = try SQLiteStorageAccount(path: path, readOnly: true)
            #expect(try await allEntities(store, table: "t").count == 200)
        }
    }

    @Test(
        "under either journal, reads run beside a long series of writes without a busy error",
        arguments: [false, true]
    )
    func readsBesideWrites(reopened: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            if reopened { _ = try SQLiteStorageAccount(path: path) }
            let store = try SQLiteStorageAccount(path: path)
            try await store.createTableIfNotExists("t")
            // The reader reads the whole table again and again, a page of 1,000 digests a
            // transaction, until the writes are done. After each batch the writer waits for one
            // more read to end, so reads run all through the writes however the threads are
            // scheduled; and a failure on either side ends the test. (The reader used to read until
            // it saw every row: a write that failed left it reading for ever, which under
            // ThreadSanitizer, where a long read made the writer's commit wait past busy_timeout,
            // held CI until its time ran out.)
            let progress = Locked((reads: 0, stopped: false))
            let reader = Task {
                defer { progress.withLock { $0.stopped = true } }
                while !Task.isCancelled {
                    var from: ContinuationToken?
                    repeat {
                        from = try await store.entityDigests(table: "t", partition: nil, from: from, limit: 1_000).next
                    } while from != nil
                    progress.withLock { $0.reads += 1 }
                }
            }
            defer { reader.cancel() }
            for batch in 0..<20 {
                try await store.write(Self.rows(2_000, from: batch * 2_000), table: "t", mode: .insert)
                let target = progress.withLock { $0.reads } + 1
                while progress.withLock({ $0.reads < target && !$0.stopped }) {
                    try await Task.sleep(for: .milliseconds(1))
                }
                if progress.withLock({ $0.stopped }) { break }
            }
            reader.cancel()
            try await reader.value
            #expect(progress.withLock { $0.reads } >= 20, "a read ended after every batch")
            #expect(
                try await store.entityDigests(table: "t", partition: nil, from: nil, limit: 50_000).digests.count
                    == 40_000
            )
        }
    }

    @Test("closing a store, after writing or after reading, removes the WAL's files every time")
    func closingTidies() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            _ = try SQLiteStorageAccount(path: path)
            do {
                let store = try SQLiteStorageAccount(path: path)
                try await store.createTableIfNotExists("t")
                try await store.write(Self.rows(100), table: "t", mode: .insert)
                #expect(!Self.leftovers(path).isEmpty, "open, the store has its WAL files")
            }
            #expect(Self.leftovers(path) == [], "after writing")
            // Closing readers raced each other and left the files about half the time: 20 tries.
            for attempt in 0..<20 {
                do {
                    let store = try SQLiteStorageAccount(path: path, readOnly: true)
                    async let first = store.query(table: "t", .all, from: nil, limit: 10)
                    async let second = store.query(table: "t", .all, from: nil, limit: 10)
                    _ = try await (first, second)
                }
                #expect(Self.leftovers(path) == [], "after reading, attempt \(attempt)")
            }
        }
    }
}
