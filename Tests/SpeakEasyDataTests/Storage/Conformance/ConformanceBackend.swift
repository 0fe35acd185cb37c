import Foundation
import SpeakEasyAzure
import SpeakEasyData
import SpeakEasySQLite
import TestServer
import Testing

/// A backend of ``StorageAccount`` that the conformance suites run against.
///
/// `make` gives a fresh, empty account (no tables, no containers) for one test, and the clean-up to
/// call when the test is done. The suites use the protocol alone, so every backend passes the very
/// same tests.
struct ConformanceBackend: Sendable, Identifiable, CustomTestStringConvertible {
    typealias Cleanup = @Sendable () async -> Void

    let name: String
    let make: @Sendable () async throws -> (account: any StorageAccount, cleanup: Cleanup)

    var id: String { name }
    var testDescription: String { name }

    /// Every backend the conformance suites run against.
    static let all: [ConformanceBackend] = [.sqlite, .newSQLite, .azureClientOverServe]

    /// The Azure client talking to `serve` over HTTP on loopback: both sides of the REST protocol,
    /// with a server for every test. Blobs over 64 KiB go up in blocks of 16 KiB, so that path is
    /// taken too.
    static let azureClientOverServe = ConformanceBackend(name: "Azure client → serve") {
        let started = try await StartedServer.start()
        do {
            let connection = try AzureConnection(ConnectionString(started.server.connectionString()))
            let account = AzureStorageAccount(
                connection,
                parallel: 4,
                retry: RetryPolicy(attempts: 3, baseDelay: .milliseconds(5)),
                singlePutLimit: 64 << 10,
                blockSize: 16 << 10
            )
            return (account, { try? await started.stop() })
        } catch {
            try? await started.stop()
            throw error
        }
    }

    /// The local account as tools mostly meet it: a store made earlier (a fresh, empty file in a
    /// fresh temporary directory for every test) and opened again, so in WAL mode.
    static let sqlite = sqlite(name: "SQLite", reopened: true)

    /// The local account in the session that creates it, under a rollback journal.
    static let newSQLite = sqlite(name: "SQLite, new file", reopened: false)

    private static func sqlite(name: String, reopened: Bool) -> ConformanceBackend {
        ConformanceBackend(name: name) {
            let directory = try makeTemporaryDirectory()
            let cleanup: Cleanup = { try? FileManager.default.removeItem(atPath: directory) }
            do {
                let path = directory + "/conformance.sqlite"
                if reopened { _ = try SQLiteStorageAccount(path: path) }
                return (try SQLiteStorageAccount(path: path), cleanup)
            } catch {
                await cleanup()
                throw error
            }
        }
    }

    /// Runs `body` on a fresh account holding the (empty) `tables` and the private `containers`,
    /// then cleans up, also when `body` throws.
    func withAccount<T>(
        tables: [String] = [Conformance.table],
        containers: [String] = [],
        _ body: (any StorageAccount) async throws -> T
    ) async throws -> T {
        let (account, cleanup) = try await make()
        do {
            for table in tables { try await account.createTableIfNotExists(table) }
            for container in containers { try await account.createContainerIfNotExists(container, access: .private) }
            let result = try await body(account)
            await cleanup()
            return result
        } catch {
            await cleanup()
            throw error
        }
    }
}

/// Names and helpers the conformance suites share. Table and container names follow Azure's rules
/// (tables: letters and digits, 3–63; containers: lower-case letters, digits and hyphens, 3–63), and
/// keys avoid the characters Azure forbids in them (`/ \ # ?` and control characters).
enum Conformance {
    static let table = "conformance"
    static let otherTable = "others"
    static let missingTable = "missing"
    static let container = "photos"
    static let otherContainer = "documents"
}

/// An entity's keys, ordered as a table orders them: PartitionKey, then RowKey, by UTF-8 bytes.
struct EntityKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    var partitionKey: String
    var rowKey: String

    init(_ partitionKey: String, _ rowKey: String) {
        self.partitionKey = partitionKey
        self.rowKey = rowKey
    }

    init(_ entity: Entity) { self.init(entity.partitionKey, entity.rowKey) }
    init(_ token: ContinuationToken) { self.init(token.partitionKey, token.rowKey) }
    init(_ digest: KeyedDigest) { self.init(digest.partitionKey, digest.rowKey) }

    static func < (a: EntityKey, b: EntityKey) -> Bool {
        if a.partitionKey != b.partitionKey {
            return a.partitionKey.utf8.lexicographicallyPrecedes(b.partitionKey.utf8)
        }
        return a.rowKey.utf8.lexicographicallyPrecedes(b.rowKey.utf8)
    }

    var description: String { "(\(partitionKey), \(rowKey))" }
}

extension Entity {
    /// The content with the properties sorted by name: backends need not keep the written order of
    /// properties (Azure does not promise to), so content is compared in this form.
    var canonical: Entity {
        Entity(
            partitionKey: partitionKey,
            rowKey: rowKey,
            properties: properties.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        )
    }

    var key: EntityKey { EntityKey(self) }
}

/// Entities sorted in key order, in canonical form.
func inKeyOrder(_ entities: [Entity]) -> [Entity] {
    entities.sorted { $0.key < $1.key }.map(\.canonical)
}

/// Every entity of a table, read page by page.
func allEntities(
    _ store: some StorageAccount,
    table: String,
    partition: String? = nil,
    pageSize: Int = 1000
) async throws -> [Entity] {
    var entities: [Entity] = []
    try await store.forEachEntity(table: table, partition: partition, pageSize: pageSize) { entities.append($0) }
    return entities
}

/// A query read to its end, page by page, with the pages as they came.
struct QueryWalk {
    var entities: [Entity]
    var pages: [EntityPage]
}

/// Reads every page of a query, checking what the protocol promises of each: at most `limit`
/// entities, in key order, each after the previous page's continuation and before the page's own.
/// Only a nil continuation ends the walk; a page may be short, or empty, while more follow.
func walk(
    _ account: any StorageAccount,
    table: String,
    _ query: EntityQuery = .all,
    limit: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> QueryWalk {
    var walked = QueryWalk(entities: [], pages: [])
    var from: ContinuationToken?
    repeat {
        let page = try await account.query(table: table, query, from: from, limit: limit)
        #expect(
            page.entities.count <= limit,
            "a page of \(page.entities.count) for a limit of \(limit)",
            sourceLocation: sourceLocation
        )
        for entity in page.entities {
            if let from {
                #expect(
                    entity.key >= EntityKey(from),
                    "\(entity.key) before the continuation \(EntityKey(from))",
                    sourceLocation: sourceLocation
                )
            }
            if let next = page.next {
                #expect(
                    entity.key < EntityKey(next),
                    "\(entity.key) at or after its page's continuation",
                    sourceLocation: sourceLocation
                )
            }
            if let last = walked.entities.last {
                #expect(last.key < entity.key, "\(entity.key) after \(last.key)", sourceLocation: sourceLocation)
            }
            walked.entities.append(entity)
        }
        walked.pages.append(page)
        from = page.next
    } while from != nil && walked.pages.count <= 10_000
    #expect(from == nil, "the walk never ended", sourceLocation: sourceLocation)
    return walked
}

/// Every digest of a table or partition, page by page, with the same checks as ``walk``.
func walkDigests(
    _ account: any StorageAccount,
    table: String,
    partition: String? = nil,
    limit: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [KeyedDigest] {
    var digests: [KeyedDigest] = []
    var from: ContinuationToken?
    var pages = 0
    repeat {
        let page = try await account.entityDigests(table: table, partition: partition, from: from, limit: limit)
        #expect(page.digests.count <= limit, sourceLocation: sourceLocation)
        for digest in page.digests {
            let key = EntityKey(digest)
            if let from { #expect(key >= EntityKey(from), sourceLocation: sourceLocation) }
            if let next = page.next { #expect(key < EntityKey(next), sourceLocation: sourceLocation) }
            if let last = digests.last {
                #expect(EntityKey(last) < key, "\(key) after \(EntityKey(last))", sourceLocation: sourceLocation)
            }
            digests.append(digest)
        }
        from = page.next
        pages += 1
    } while from != nil && pages <= 10_000
    #expect(from == nil, "the walk never ended", sourceLocation: sourceLocation)
    return digests
}

/// Runs `body`, which must throw a ``StorageError``, and returns the error.
func storageError(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async -> StorageError? {
    await #expect(throws: StorageError.self, sourceLocation: sourceLocation) { try await body() }
}
