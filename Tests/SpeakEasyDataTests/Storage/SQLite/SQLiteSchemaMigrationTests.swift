import Foundation
import SpeakEasyData
import SpeakEasySQLite
import TestSupport
import Testing

/// A store made before schema 3 (no blob content headers or metadata, no stored access policies)
/// opens and serves unchanged: read-only as it is, and migrated in place when opened for writing.
@Suite("SQLite: stores of schema 2 open and serve unchanged")
struct SQLiteSchemaMigrationTests {
    /// Schema 2 as version 2 of the toolkit wrote it (its SQLiteSchema.create, the blob parts), with
    /// a container and a blob in it.
    static let schema2 = """
        PRAGMA application_id = 1397047620; PRAGMA user_version = 2;
        CREATE TABLE tables (name TEXT PRIMARY KEY, created TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE entities (table_name TEXT NOT NULL REFERENCES tables(name), partition_key TEXT NOT NULL, row_key TEXT NOT NULL,
            timestamp TEXT NOT NULL, etag TEXT NOT NULL, properties TEXT NOT NULL, PRIMARY KEY (table_name, partition_key, row_key));
        CREATE TABLE containers (name TEXT PRIMARY KEY, public_access TEXT NOT NULL CHECK (public_access IN ('private', 'blob', 'container')),
            etag TEXT NOT NULL, last_modified TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE blobs (container TEXT NOT NULL REFERENCES containers(name), name TEXT NOT NULL, content_type TEXT NOT NULL,
            content_md5 TEXT NOT NULL, size INTEGER NOT NULL, etag TEXT NOT NULL, last_modified TEXT NOT NULL, data BLOB NOT NULL,
            PRIMARY KEY (container, name));
        CREATE TABLE blocks (container TEXT NOT NULL, blob TEXT NOT NULL, block_id TEXT NOT NULL, committed INTEGER NOT NULL,
            position INTEGER NOT NULL, size INTEGER NOT NULL, data BLOB, PRIMARY KEY (container, blob, committed, block_id)) WITHOUT ROWID;
        INSERT INTO containers VALUES ('speakers', 'container', '"0x8DC0000000000"', '2024-05-01T10:00:00.0000000Z');
        INSERT INTO blobs VALUES ('speakers', 'ada.jpg', 'image/jpeg', 'hQ7qIQogQ+FI+RDY/b6J8A==', 5, '"0x8DC0000000001"',
            '2024-05-01T10:00:01.0000000Z', X'0102030405');
        """

    func makeSchema2Store(_ directory: String) throws -> String {
        let path = directory + "/old.sqlite"
        try RawSQLite(path: path).execute(Self.schema2)
        return path
    }

    func expectServedUnchanged(_ account: SQLiteStorageAccount) async throws {
        let container = try #require(try await account.containerProperties("speakers"))
        #expect(container.access == .container)
        #expect(container.etag == "\"0x8DC0000000000\"")
        #expect(container.metadata == [:])
        let blob = try #require(
            try await account.blobProperties(container: "speakers", name: "ada.jpg", conditions: .none)
        )
        #expect(blob.contentType == "image/jpeg")
        #expect(blob.etag == "\"0x8DC0000000001\"")
        #expect(blob.size == 5)
        #expect(blob.metadata == [:])
        #expect(blob.headers == .none)
        #expect(try await account.blobData(container: "speakers", name: "ada.jpg") == [1, 2, 3, 4, 5])
        #expect(try await account.blobProperties(container: "speakers").map(\.name) == ["ada.jpg"])
        #expect(try await account.containerPolicies("speakers") == [])
    }

    @Test("read-only, a schema-2 store is read as it is, the newer columns at their defaults, and left at schema 2")
    func readOnly() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try makeSchema2Store(directory)
        try await expectServedUnchanged(try SQLiteStorageAccount(path: path, readOnly: true))
        #expect(try RawSQLite(path: path).rows("PRAGMA user_version") == [["2"]])
    }

    @Test("opened for writing, a schema-2 store is migrated to schema 3 and keeps everything it held")
    func migrated() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try makeSchema2Store(directory)
        do {
            let account = try SQLiteStorageAccount(path: path)
            try await expectServedUnchanged(account)
            let stored = try await account.setBlobMetadata(
                container: "speakers",
                name: "ada.jpg",
                metadata: ["mtime": "1"],
                conditions: .none
            )
            #expect(stored.metadata == ["mtime": "1"])
        }
        #expect(try RawSQLite(path: path).rows("PRAGMA user_version") == [["3"]])
        let reopened = try SQLiteStorageAccount(path: path)
        #expect(
            try await reopened.blobProperties(container: "speakers", name: "ada.jpg", conditions: .none)?.metadata == [
                "mtime": "1"
            ]
        )
        #expect(try RawSQLite(path: path).rows("SELECT json_extract(metadata, '$.mtime') FROM blobs") == [["1"]])
    }
}
