/// How a write treats an entity whose keys already exist.
package enum WriteMode: String, Sendable {
    /// Insert only; an existing entity is an error (Azure's Insert Entity).
    case insert
    /// Insert, leaving an existing entity as it is (resuming an interrupted run).
    case insertOrSkip
    /// Azure's Insert Or Replace: the new properties replace all the old ones.
    case insertOrReplace
    /// Azure's Insert Or Merge: new properties replace or join the old ones, others stay.
    case insertOrMerge
}

/// What a batch write did. An entity whose content would not change is left untouched.
package struct WriteOutcome: Hashable, Sendable {
    package var inserted = 0
    package var updated = 0
    package var unchanged = 0

    package init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }

    package static func += (lhs: inout WriteOutcome, rhs: WriteOutcome) {
        lhs.inserted += rhs.inserted
        lhs.updated += rhs.updated
        lhs.unchanged += rhs.unchanged
    }
}

/// Who may read a blob container without a key.
package enum ContainerAccess: String, Sendable, CaseIterable {
    /// Only with the account key.
    case `private`
    /// Anyone may read blobs by URL (`x-ms-blob-public-access: blob`).
    case blob
    /// Anyone may read and list blobs (`x-ms-blob-public-access: container`).
    case container
}

/// A blob's stored properties.
package struct BlobProperties: Hashable, Sendable {
    package var name: String
    package var contentType: String
    /// Base64 of the MD5 of the content, as Azure's Content-MD5.
    package var contentMD5: String
    package var size: Int
    package var etag: String
    package var lastModified: EdmDateTime
}

/// A position in a partition scan: where the next page starts (Azure's continuation headers).
package struct ContinuationToken: Hashable, Sendable {
    package var partitionKey: String
    package var rowKey: String
}

/// A storage account: tables of entities and containers of blobs.
///
/// Backend-neutral and small, so the local SQLite account and Azure can stand behind it alike.
/// Methods that write are atomic per call: a batch is written whole or not at all.
package protocol StorageAccount: AnyObject, Sendable {
    /// A name for messages (a path, or an account name); never a secret.
    var displayName: String { get }
    /// The URL of a blob in this account, in the form ``BlobURL`` parses.
    func blobURL(container: String, blob: String) -> String

    func createTableIfNotExists(_ table: String) async throws
    /// The names of the account's tables, sorted (Azure's Query Tables).
    func tableNames() async throws -> [String]
    /// Entity counts per PartitionKey (empty when the table is missing or empty).
    func entityCounts(table: String) async throws -> [String: Int]
    func deleteAllEntities(table: String) async throws
    /// Writes a batch of entities in one transaction.
    func write(_ entities: [EncodedEntity], table: String, mode: WriteMode) async throws -> WriteOutcome
    /// A page of entities in key order, and where the next page starts (nil at the end).
    func entities(table: String, partition: String?, after: ContinuationToken?, limit: Int) async throws -> (entities: [Entity], next: ContinuationToken?)
    func entity(table: String, partitionKey: String, rowKey: String) async throws -> Entity?

    /// Makes every completed write durable (fsync for a local file; Azure acknowledges durable writes).
    func flush() async throws

    func createContainerIfNotExists(_ container: String, access: ContainerAccess) async throws
    func containerAccess(_ container: String) async throws -> ContainerAccess?
    /// Stores a blob unless one with the same content and content type is there; true when written.
    func putBlob(container: String, name: String, contentType: String, data: [UInt8]) async throws -> Bool
    func blobProperties(container: String) async throws -> [BlobProperties]
    func blobData(container: String, name: String) async throws -> [UInt8]?
    func deleteAllBlobs(container: String) async throws
}

extension StorageAccount {
    /// Encodes and writes a batch of entities in one transaction.
    package func write(_ entities: [Entity], table: String, mode: WriteMode) async throws -> WriteOutcome {
        try await write(entities.map(EncodedEntity.init), table: table, mode: mode)
    }

    /// Every entity of a table (or one partition), one page at a time.
    package func forEachEntity(table: String, partition: String? = nil, pageSize: Int = 1000, _ body: (Entity) throws -> Void) async throws {
        var after: ContinuationToken?
        repeat {
            let page = try await entities(table: table, partition: partition, after: after, limit: pageSize)
            for entity in page.entities { try body(entity) }
            after = page.next
        } while after != nil
    }
}
