import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// The `sqlite3` shell: reads a store independently of the library under test.
enum SQLiteShell {
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/sqlite3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    static var isAvailable: Bool { executable != nil }

    static func path() throws -> String {
        guard let executable else {
            struct Missing: Error, CustomStringConvertible {
                var description: String { "the sqlite3 shell is not on PATH" }
            }
            Issue.record(Missing())
            throw Missing()
        }
        return executable
    }

    /// Runs one SQL text read-only (waiting up to 5 s for locks) and returns the raw result.
    static func run(_ database: String, _ sql: String, readOnly: Bool = true) async throws -> ProcessResult {
        try await Subprocess.run(
            try path(),
            (readOnly ? ["-readonly"] : []) + ["-batch", "-cmd", ".timeout 5000", database, sql],
            directory: "/"
        )
    }

    /// The output lines of a query; fails the test when sqlite3 fails.
    static func lines(_ database: String, _ sql: String) async throws -> [String] {
        let result = try await run(database, sql)
        guard result.status == 0, !result.killedBySignal else {
            struct Failed: Error, CustomStringConvertible { var description: String }
            throw Failed(description: "sqlite3 failed: \(result)")
        }
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    static func integer(_ database: String, _ sql: String) async throws -> Int {
        let text = try await lines(database, sql).first ?? ""
        guard let value = Int(text) else {
            struct NotANumber: Error, CustomStringConvertible { var description: String }
            throw NotANumber(description: "sqlite3 answered '\(text)' to \(sql)")
        }
        return value
    }

    /// Everything in the database, as SQL: equal dumps mean nothing at all changed.
    static func dump(_ database: String) async throws -> String {
        try await lines(database, ".dump").joined(separator: "\n")
    }

    /// SHA3 of the `events` table's keys and stored property JSON, in key order: equal digests mean
    /// byte-identical content (the store's Timestamp and ETag are left out).
    static func eventsTableDigest(_ database: String) async throws -> String {
        try await lines(
            database,
            "SELECT hex(sha3_query('SELECT partition_key, row_key, properties FROM entities WHERE table_name = ''events'' ORDER BY partition_key, row_key'))"
        ).first ?? ""
    }
}

/// A store's state as the library reads it.
struct StoreContents: Sendable {
    /// Entities of `events`, in key order, with the store's Timestamp and ETag.
    var entities: [Entity]
    var counts: [String: Int]
    var blobs: [BlobProperties]
    var access: ContainerAccess?
    var manifest: SeedManifest?

    var speakers: [Entity] { entities.filter { $0.partitionKey == DataContract.speakersPartition } }
    var events: [Entity] { entities.filter { $0.partitionKey == DataContract.eventsPartition } }
    /// The entities without Timestamp and ETag.
    var content: [Entity] { entities.map(\.content) }
    /// (PartitionKey, RowKey) → (Timestamp, ETag).
    var stamps: [String: String] {
        Dictionary(
            uniqueKeysWithValues: entities.map {
                ("\($0.partitionKey)/\($0.rowKey)", "\($0.timestamp.map(\.description) ?? "-") \($0.etag ?? "-")")
            }
        )
    }

    /// Reads the store at `path` read-only; without `entities`, only counts, blobs and the manifest.
    static func read(_ path: String, entities withEntities: Bool = true) async throws -> StoreContents {
        let store = try StorageLocation.local(path: path).open(readOnly: true)
        var entities: [Entity] = []
        if withEntities { try await store.forEachEntity(table: DataContract.table) { entities.append($0) } }
        entities.sort { ($0.partitionKey, $0.rowKey) < ($1.partitionKey, $1.rowKey) }
        return StoreContents(
            entities: entities,
            counts: try await store.entityCounts(table: DataContract.table),
            blobs: try await store.containerAccess(DataContract.photoContainer) == nil
                ? []
                : try await store.blobProperties(container: DataContract.photoContainer).sorted { $0.name < $1.name },
            access: try await store.containerAccess(DataContract.photoContainer),
            manifest: try await SeedManifest.load(from: store, table: DataContract.table)
        )
    }

    /// The bytes of one photo blob.
    static func blobData(_ path: String, name: String) async throws -> [UInt8]? {
        let store = try StorageLocation.local(path: path).open(readOnly: true)
        return try await store.blobData(container: DataContract.photoContainer, name: name)
    }
}

extension Entity {
    /// A String property's value, if it is one.
    func string(_ name: String) -> String? {
        if case .string(let value)? = self[name] { return value }
        return nil
    }
}

/// `--from` and `--cutoff` for the tests that need fixed dates (the defaults move with the clock).
let fixedWindow = ["--from", "2026-01-01"]
