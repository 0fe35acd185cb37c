import Foundation
import SpeakEasyAccounts
import SpeakEasyCore
public import SpeakEasyModel
import SpeakEasyProtocol
public import SpeakEasyStorage

/// A storage account, opened the way the tools' `--store` opens one: a local SQLite file, Azure, or
/// anything that speaks Azure's protocol, such as `serve` or ``LocalStorageServer``.
///
/// ```swift
/// let store = try Store("./speakeasy.sqlite")            // a local account file
/// let azure = try Store("azure")                          // AZURE_STORAGE_CONNECTION_STRING
/// let local = try Store(server.connectionString)          // any connection string
///
/// try await store.createTable("Events")
/// try await store.write(entities, to: "Events")
/// for try await event in store.entities(in: "Events") {
///     print(event.rowKey)
/// }
/// ```
///
/// The same guarantees hold whatever is behind it, because they are Azure's: a write of entities is
/// atomic only per transaction group (up to 100 entities of one partition), and every write mode is
/// safe to repeat. A failure of the store is a ``StorageError``; ``seed(_:)`` and
/// ``export(table:partition:to:as:)``, which do more than talk to the store, say what else they throw.
public final class Store: Sendable {
    /// The account, whichever backend holds it.
    package let account: any StorageAccount
    /// Where the `--store` value pointed.
    package let location: StorageLocation

    /// Opens the account a `--store` value names.
    ///
    /// - Parameters:
    ///   - store: a path to a local account file (created when missing, unless `readOnly`); `azure`,
    ///     the connection string in `AZURE_STORAGE_CONNECTION_STRING`; `dev`, the development account
    ///     on 127.0.0.1 (`serve`, Azurite); or a connection string.
    ///   - environment: where `azure` looks; nil (the default) for the process's environment.
    ///   - readOnly: open a local file for reading only; a missing file is then an error.
    /// - Throws: ``StorageError`` with ``StorageError/Reason/invalidInput`` for a connection string
    ///   that cannot be used (naming the setting at fault, never a secret), and for an empty value or a
    ///   URL, which is no file's path (an account's endpoints go in a connection string); or when the
    ///   file cannot be opened. An Azure account is first reached by the first request.
    public init(
        _ store: String,
        environment: [String: String]? = nil,
        readOnly: Bool = false
    ) throws(StorageError) {
        do {
            location = try StorageLocation(store, environment: environment ?? ProcessInfo.processInfo.environment)
        } catch {
            throw StorageError(.invalidInput, account: "", error.description)
        }
        // As `--store` does: an empty value or a URL would be taken for a file's path.
        guard !location.isImplausiblePath else {
            throw StorageError(.invalidInput, account: "", "'\(store)' \(StorageLocation.implausiblePathAdvice)")
        }
        account = try location.open(readOnly: readOnly)
    }

    /// A name for messages: the file's path, or the account's name and table endpoint. Never a secret.
    public var displayName: String { account.displayName }

    // MARK: Tables

    /// Creates a table unless one of that name exists (in any letter case, as Azure's table names
    /// ignore case).
    /// - Returns: whether the table was created.
    @discardableResult
    public func createTable(_ name: String) async throws(StorageError) -> Bool {
        try await storage { try await account.createTableIfNotExists(name) }
    }

    /// The names of the account's tables, sorted.
    public func tableNames() async throws(StorageError) -> [String] {
        try await storage { try await account.tableNames() }
    }

    /// Deletes a table and its entities; a missing table is ``StorageError/Reason/notFound``.
    public func deleteTable(_ name: String) async throws(StorageError) {
        try await storage { try await account.deleteTable(name) }
    }

    // MARK: Entities

    /// Writes entities to a table, in as few transaction groups as their partitions allow.
    ///
    /// - Parameters:
    ///   - entities: the entities; their `timestamp` and `etag` are ignored (the store sets them).
    ///   - table: the table, which must exist.
    ///   - mode: what happens to an entity whose keys exist already; ``WriteMode/insertOrReplace``
    ///     by default.
    public func write(
        _ entities: [Entity],
        to table: String,
        mode: WriteMode = .insertOrReplace
    ) async throws(StorageError) {
        try await storage { try await account.write(entities, table: table, mode: mode) }
    }

    /// One entity, with its `timestamp` and `etag`; nil when it or its table does not exist.
    public func entity(in table: String, partitionKey: String, rowKey: String) async throws(StorageError) -> Entity? {
        try await storage { try await account.entity(table: table, partitionKey: partitionKey, rowKey: rowKey) }
    }

    /// Deletes an entity; a missing one is ``StorageError/Reason/notFound``.
    public func deleteEntity(in table: String, partitionKey: String, rowKey: String) async throws(StorageError) {
        try await storage {
            try await account.deleteEntity(table: table, partitionKey: partitionKey, rowKey: rowKey, ifMatch: "*")
        }
    }

    /// The entities of a table, in key order, read a page at a time as the sequence is iterated.
    ///
    /// ```swift
    /// for try await speaker in store.entities(in: "Speakers", filter: "Country eq 'NL'") { … }
    /// ```
    ///
    /// - Parameters:
    ///   - table: the table; a missing one is ``StorageError/Reason/notFound`` on the first read.
    ///   - partition: only this partition's entities; nil for all.
    ///   - filter: an OData `$filter` expression, as Azure's Query Entities takes it; nil for all. One
    ///     that cannot be read is ``StorageError/Reason/invalidInput`` on the first read.
    public func entities(in table: String, partition: String? = nil, filter: String? = nil) -> StoreEntities {
        StoreEntities(account: account, table: table, partition: partition, filter: filter)
    }

    /// How many entities a table holds, or one partition of it.
    ///
    /// The local account counts in its key index; Azure has no count, so there it reads every entity
    /// (a page of 1,000 a request).
    ///
    /// - Parameters:
    ///   - table: the table; a missing one is ``StorageError/Reason/notFound``.
    ///   - partition: only this partition's entities; nil for the whole table.
    public func count(in table: String, partition: String? = nil) async throws(StorageError) -> Int {
        try await storage {
            let tables = try await account.tableNames()
            guard tables.contains(where: { $0.lowercased() == table.lowercased() }) else {
                throw StorageError(
                    .notFound,
                    account: account.displayName,
                    "no table '\(table)'",
                    code: "TableNotFound"
                )
            }
            var count = 0
            if let partition {
                var from: ContinuationToken?
                repeat {
                    let page = try await account.entityDigests(
                        table: table,
                        partition: partition,
                        from: from,
                        limit: StoreEntities.pageSize
                    )
                    count += page.digests.count
                    from = page.next
                } while from != nil
            } else {
                var after: String?
                repeat {
                    let page = try await account.partitionCounts(table: table, after: after, limit: 1000)
                    count += page.partitions.reduce(0) { $0 + $1.entities }
                    after = page.next
                } while after != nil
            }
            return count
        }
    }

    // MARK: Blobs

    /// Creates a private container unless one of that name exists.
    /// - Returns: whether the container was created.
    @discardableResult
    public func createContainer(_ name: String) async throws(StorageError) -> Bool {
        try await storage { try await account.createContainerIfNotExists(name, access: .private) }
    }

    /// Stores a blob, replacing any of that name; the container must exist.
    public func putBlob(
        _ data: [UInt8],
        container: String,
        name: String,
        contentType: String = "application/octet-stream"
    ) async throws(StorageError) {
        try await storage {
            try await account.storeBlob(
                container: container,
                name: name,
                data: data,
                settings: BlobSettings(contentType: contentType),
                conditions: .none
            )
        }
    }

    /// A blob's bytes; nil when there is no such blob.
    public func blob(container: String, name: String) async throws(StorageError) -> [UInt8]? {
        try await storage { try await account.blobData(container: container, name: name) }
    }

    /// The names of a container's blobs that start with `prefix`, sorted.
    public func blobNames(container: String, prefix: String = "") async throws(StorageError) -> [String] {
        try await storage { try await account.blobProperties(container: container, prefix: prefix).map(\.name) }
    }

    /// Runs `body` against the account, with any failure as a ``StorageError``.
    func storage<Result>(_ body: () async throws -> Result) async throws(StorageError) -> Result {
        try await storageCall(account, body)
    }
}

/// Runs `body` against `account`, with any failure as a ``StorageError``: the backends throw nothing
/// else, and an error that is not one (a cancellation) becomes ``StorageError/Reason/unavailable``.
func storageCall<Result>(
    _ account: any StorageAccount,
    _ body: () async throws -> Result
) async throws(StorageError) -> Result {
    do {
        return try await body()
    } catch let error as StorageError {
        throw error
    } catch {
        throw StorageError(.unavailable, account: account.displayName, "\(error)")
    }
}
