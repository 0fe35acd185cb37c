import Glibc
import SpeakEasyData
import Testing

/// The WAL's files live only while a tool has the store open: the connection that closes last folds
/// the WAL back into the database and removes them, which it can do only when no other connection is
/// closing at the same moment.
@Suite("SQLite storage account: no -wal or -shm left behind")
struct SQLiteWALFilesTests {
    static func leftovers(_ path: String) -> [String] {
        [path + "-wal", path + "-shm"].filter { access($0, F_OK) == 0 }
    }

    @Test("closing a store, after writing or after reading, removes the WAL's files every time")
    func closingTidies() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            do {
                let store = try SQLiteStorageAccount(path: path)
                try await store.createTableIfNotExists("t")
                try await store.write((0..<100).map { Entity(partitionKey: "p", rowKey: String($0)) }, table: "t", mode: .insert)
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
