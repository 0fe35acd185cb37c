import CLISupport
import CSQLite
import Foundation
import SpeakEasyData
import SpeakEasySQLite
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("SQLite storage account: opening what is not a store")
struct SQLiteOpeningErrorTests {
    @Test("a directory is not a storage account, for reading and writing alike", arguments: [false, true])
    func directory(readOnly: Bool) throws {
        try withTemporaryDirectorySync { directory in
            let error = #expect(throws: StorageError.self) {
                try SQLiteStorageAccount(path: directory, readOnly: readOnly)
            }
            #expect(error.map { ExitStatus.kind(of: $0.reason) } == .malformedInput)
            #expect(error?.description == "\(directory): not a storage account: it is a directory")
            #expect(error?.account == directory)
        }
    }

    @Test(
        "a file that is not an SQLite database is refused as malformed",
        arguments: ["hello, I am a text file\n", "hi"]
    )
    func notADatabase(text: String) throws {
        try withTemporaryDirectorySync { directory in
            let path = directory + "/notes.txt"
            try writeFile(path, text)
            let error = #expect(throws: StorageError.self) { try SQLiteStorageAccount(path: path) }
            #expect(error.map { ExitStatus.kind(of: $0.reason) } == .malformedInput)
            #expect(error?.reason == .corrupt)
            #expect(error?.description.contains("not an SQLite database") == true)
            #expect(try readFile(path) == Array(text.utf8), "the file is left alone")
        }
    }

    @Test("an SQLite database of something else is refused and left untouched")
    func someOtherDatabase() throws {
        try withTemporaryDirectorySync { directory in
            let path = directory + "/other.sqlite"
            do {
                let raw = try RawSQLite(path: path)
                try raw.execute("CREATE TABLE foo (x INTEGER); INSERT INTO foo VALUES (1)")
            }
            let error = #expect(throws: StorageError.self) { try SQLiteStorageAccount(path: path) }
            #expect(error.map { ExitStatus.kind(of: $0.reason) } == .malformedInput)
            #expect(error?.description == "\(path): not a storage account: an SQLite database of something else")
            let raw = try RawSQLite(path: path)
            #expect(try raw.strings("SELECT name FROM sqlite_master") == ["foo"])
        }
    }

    @Test("a store written by a newer schema version is refused")
    func newerSchema() throws {
        try withTemporaryDirectorySync { directory in
            let path = directory + "/store.sqlite"
            do { _ = try SQLiteStorageAccount(path: path) }
            try RawSQLite(path: path).execute("PRAGMA user_version = 99")
            let error = #expect(throws: StorageError.self) { try SQLiteStorageAccount(path: path) }
            #expect(error.map { ExitStatus.kind(of: $0.reason) } == .malformedInput)
            #expect(error?.message.contains("newer") == true)
        }
    }

    @Test("an empty file becomes a fresh store")
    func emptyFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/empty.sqlite"
            try writeFile(path, [])
            let store = try SQLiteStorageAccount(path: path)
            try await store.createTableIfNotExists("t")
            try await store.write([Entity(partitionKey: "p", rowKey: "r")], table: "t", mode: .insert)
            #expect(try await store.entityCounts(table: "t") == ["p": 1])
        }
    }

    @Test("an empty file or database holds nothing to read: missing input, as no file is", arguments: [false, true])
    func emptyReadOnly(database: Bool) throws {
        try withTemporaryDirectorySync { directory in
            let path = directory + "/empty.sqlite"
            if database {
                try RawSQLite(path: path).execute("PRAGMA user_version = 0; VACUUM")
            } else {
                try writeFile(path, [])
            }
            let error = #expect(throws: StorageError.self) { try SQLiteStorageAccount(path: path, readOnly: true) }
            #expect(error.map { ExitStatus.kind(of: $0.reason) } == .inputMissing)
            #expect(error?.message.hasPrefix("no storage account here") == true)
        }
    }

    @Test("a store in a directory that does not exist cannot be created, and says which directory")
    func missingParent() throws {
        try withTemporaryDirectorySync { directory in
            let error = #expect(throws: StorageError.self) {
                try SQLiteStorageAccount(path: directory + "/no/such/dir/store.sqlite")
            }
            #expect(error.map { ExitStatus.kind(of: $0.reason) } == .cannotCreateOutput)
            #expect(error?.message == "cannot create it: directory \(directory)/no/such/dir does not exist")
            #expect(FileManager.default.fileExists(atPath: directory + "/no") == false)
        }
    }

    /// Reading a store that is not there is missing input (66), not an output that cannot be created (73).
    @Test("opening a missing store read-only is missing input, and creates nothing")
    func missingReadOnly() throws {
        try withTemporaryDirectorySync { directory in
            let path = directory + "/missing.sqlite"
            let error = #expect(throws: StorageError.self) { try SQLiteStorageAccount(path: path, readOnly: true) }
            #expect(error?.message == "no storage account here")
            #expect(error?.toolAdvice == "; run seed first, or name one with --store")
            #expect(FileManager.default.fileExists(atPath: path) == false)
            #expect(
                error.map { ExitStatus.kind(of: $0.reason) } == .inputMissing,
                "reason is \(String(describing: error?.reason))"
            )
        }
    }

    // Root ignores file permissions (access(2) says writable), so the case only means something for other users.
    @Test(
        "a read-only file is refused for writing but opens read-only",
        .enabled(if: geteuid() != 0, "root ignores file permissions")
    )
    func readOnlyFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            do {
                let store = try SQLiteStorageAccount(path: path)
                try await store.write([Entity(partitionKey: "p", rowKey: "r")], table: "t", mode: .insert)
            }
            // Fold the WAL back so the read-only open needs no write access to -wal/-shm.
            try RawSQLite(path: path).execute("PRAGMA journal_mode = DELETE")
            #expect(chmod(path, 0o444) == 0)
            defer { chmod(path, 0o644) }
            let error = #expect(throws: StorageError.self) { try SQLiteStorageAccount(path: path) }
            #expect(error.map { ExitStatus.kind(of: $0.reason) } == .cannotCreateOutput)
            #expect(error?.reason == .unauthorized)
            let readOnly = try SQLiteStorageAccount(path: path, readOnly: true)
            #expect(try await readOnly.entityCounts(table: "t") == ["p": 1])
        }
    }
}
