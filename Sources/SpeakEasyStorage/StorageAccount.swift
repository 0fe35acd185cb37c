package import SpeakEasyModel

/// A storage account: tables of entities and containers of blobs, with the guarantees Azure Storage
/// gives and no more, so that the local SQLite account, an Azure account and `serve` stand behind it
/// alike.
///
/// - **Atomicity.** Only a transaction group is atomic: at most 100 entities of one partition
///   (``TransactionGroups``). A larger write is several groups; when it fails, earlier groups may be
///   written. Every write mode is safe to repeat, which is how an interrupted run finishes.
/// - **Durability.** When a write returns it is committed: every reader sees it, and a process that
///   dies afterwards loses nothing. ``flush()`` also makes it survive the machine stopping (Azure
///   acknowledges only such writes; a local file needs an fsync, which bulk loads defer to the end).
/// - **Pages.** A query page may hold fewer entities than asked for while more follow; only a nil
///   continuation means the end (``EntityPage``).
/// - **Reads in bulk.** What it costs Azure a request per entity — does it exist, has it changed? —
///   is asked once for a whole partition: ``entityDigests(table:partition:after:limit:)``.
/// - **Errors** are ``StorageError``s.
package protocol StorageAccount: AnyObject, Sendable {
    /// A name for messages (a path, or an account name); never a secret.
    var displayName: String { get }
    /// The account's name, as its blob URLs carry it.
    var accountName: String { get }
    /// Where the account is, for a report to point at: a local account's file path, a remote
    /// account's table endpoint URL; never a secret.
    var address: String { get }
    /// The URL of a blob in this account, in the form ``BlobURL`` parses.
    func blobURL(container: String, blob: String) -> String
    /// Whether `url`, which names another account than this one, is answered for all the same on
    /// this account's blob endpoint (it opens, or its blob is missing there): a server answering for
    /// one store under several names. False when the URL is elsewhere.
    func opensOnThisEndpoint(_ url: String) async -> Bool

    // MARK: Tables

    /// Creates a table unless one of that name exists, in any letter case (Azure's table names
    /// ignore case); true when created.
    @discardableResult func createTableIfNotExists(_ table: String) async throws -> Bool
    /// The names of the account's tables, sorted (Azure's Query Tables).
    func tableNames() async throws -> [String]
    /// Deletes a table and its entities; a missing table is ``StorageError/Reason/notFound``.
    func deleteTable(_ table: String) async throws
    func deleteAllEntities(table: String) async throws
    /// The table's stored access policies (Azure's Get Table ACL), in the order they were set; nil
    /// when there is no such table.
    func tablePolicies(_ table: String) async throws -> [StoredAccessPolicy]?
    /// Replaces the table's stored access policies (Set Table ACL); a missing table is
    /// ``StorageError/Reason/notFound``.
    func setTablePolicies(_ table: String, _ policies: [StoredAccessPolicy]) async throws

    // MARK: Entities

    /// Writes entities, one ``WriteMode`` for all, atomically per transaction group. Insert of an
    /// entity that exists, or of one key twice in a call, is ``StorageError/Reason/alreadyExists``.
    func write(_ entities: [EncodedEntity], table: String, mode: WriteMode) async throws
    /// Azure's Update (replace) or Merge Entity of an entity that must exist, when its ETag is
    /// `ifMatch` (`*`: any). Returns the new ETag.
    func update(_ entity: EncodedEntity, table: String, merge: Bool, ifMatch: String) async throws -> String
    /// Azure's entity group transaction: runs the operations in order, all or none. They address
    /// one partition, each entity at most once, at most 100 of them (else invalidInput, with Azure's
    /// codes). Returns each operation's new ETag (nil for a delete). A failure is the failing
    /// operation's error, with its ``StorageError/operationIndex``; nothing is written then.
    func transact(_ operations: [EntityOperation], table: String) async throws -> [String?]
    /// Deletes an entity that must exist, when its ETag is `ifMatch` (`*`: any).
    func deleteEntity(table: String, partitionKey: String, rowKey: String, ifMatch: String) async throws
    /// A page of the entities the query matches, in key order, starting at `from` (nil: the start).
    /// A missing table is ``StorageError/Reason/notFound``.
    func query(table: String, _ query: EntityQuery, from: ContinuationToken?, limit: Int) async throws -> EntityPage
    /// ``query(table:_:from:limit:)`` with the properties left as stored (minimal-metadata JSON): for
    /// a server's reply, which can copy them through. The query selects no properties (`select` is
    /// nil) and filters on the keys alone.
    func storedQuery(
        table: String,
        _ query: EntityQuery,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> StoredEntityPage
    /// One entity, with its Timestamp and ETag, or which is missing: the entity or its table.
    func lookUpEntity(table: String, partitionKey: String, rowKey: String) async throws -> EntityLookup
    /// The keys and content digests of a page of entities, in key order: what a writer needs to know
    /// of existing entities, read in bulk. A missing table has none.
    func entityDigests(
        table: String,
        partition: String?,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> (digests: [KeyedDigest], next: ContinuationToken?)

    /// The table's partitions after `after` (nil: from the first) in key order, at most `limit`,
    /// each with its entity count. A missing table has none.
    func partitionCounts(table: String, after: String?, limit: Int) async throws -> PartitionCountPage

    /// Makes every committed write survive the machine stopping.
    func flush() async throws

    // MARK: Blobs

    /// Creates a container with its metadata unless one of that name exists (whose access and
    /// metadata stay as they are); true when created.
    @discardableResult func createContainerIfNotExists(
        _ container: String,
        access: ContainerAccess,
        metadata: [String: String]
    ) async throws -> Bool
    /// The container's properties, metadata included; nil when there is no such container.
    func containerProperties(_ container: String) async throws -> ContainerProperties?
    /// Replaces the container's metadata (Azure's Set Container Metadata: a new ETag and
    /// Last-Modified); a missing container is ``StorageError/Reason/notFound`` (ContainerNotFound).
    @discardableResult func setContainerMetadata(
        _ container: String,
        metadata: [String: String]
    ) async throws -> ContainerProperties
    /// The container's public access level and stored access policies (Azure's Set Container ACL:
    /// a new ETag and Last-Modified); a missing container is ``StorageError/Reason/notFound``.
    @discardableResult
    func setContainerACL(
        _ container: String,
        access: ContainerAccess,
        policies: [StoredAccessPolicy]
    ) async throws -> ContainerProperties
    /// The container's stored access policies, in the order they were set; nil when there is no
    /// such container.
    func containerPolicies(_ container: String) async throws -> [StoredAccessPolicy]?
    /// The account's containers, sorted.
    func containerNames() async throws -> [String]
    /// Deletes a container and its blobs; a missing one is ``StorageError/Reason/notFound``
    /// (ContainerNotFound).
    func deleteContainer(_ container: String) async throws
    /// Stores a blob when `conditions` allow, unless one with the same content and content type is
    /// there already; true when written.
    func putBlob(
        container: String,
        name: String,
        contentType: String,
        data: [UInt8],
        conditions: BlobConditions
    ) async throws -> Bool
    /// Azure's Put Blob: stores the blob with its settings when `conditions` allow, always as a new
    /// write (a new ETag and Last-Modified, even for the same bytes: clients tell writes apart by
    /// them). Returns the stored properties.
    @discardableResult
    func storeBlob(
        container: String,
        name: String,
        data: [UInt8],
        settings: BlobSettings,
        conditions: BlobConditions
    ) async throws -> BlobProperties
    /// A blob's properties (metadata and content headers included) when `conditions` allow, read
    /// without its content (Azure's Get Blob Properties); nil when there is no such blob.
    func blobProperties(container: String, name: String, conditions: BlobConditions) async throws -> BlobProperties?
    /// Replaces a blob's metadata when `conditions` allow (Azure's Set Blob Metadata); its content
    /// and content headers stay. A missing blob is ``StorageError/Reason/notFound`` (BlobNotFound).
    @discardableResult
    func setBlobMetadata(
        container: String,
        name: String,
        metadata: [String: String],
        conditions: BlobConditions
    ) async throws -> BlobProperties
    /// Replaces a blob's content type, content headers and Content-MD5 (`settings.contentMD5`, nil:
    /// none) when `conditions` allow (Azure's Set Blob Properties, which clears what it is not
    /// given); its bytes and metadata stay. A missing blob is ``StorageError/Reason/notFound``.
    @discardableResult
    func setBlobProperties(
        container: String,
        name: String,
        settings: BlobSettings,
        conditions: BlobConditions
    ) async throws -> BlobProperties
    /// A page of the container's blobs whose names start with `prefix`, sorted by name, starting at
    /// the marker a previous page gave (nil: the start). With `includeUncommitted` (Azure's
    /// `include=uncommittedblobs`) the blobs that have staged blocks and no content yet are listed
    /// too, as ``BlobProperties/uncommitted(name:)``, in name order among the others and counted
    /// towards `limit` alike; a blob with content is listed once, however many blocks it has staged.
    /// A missing container is ``StorageError/Reason/notFound`` (ContainerNotFound).
    func blobPage(
        container: String,
        prefix: String,
        from marker: String?,
        limit: Int,
        includeUncommitted: Bool
    ) async throws -> BlobPage
    /// A blob's properties and content (or the range of it asked for) when `conditions` allow; nil
    /// when there is no such blob.
    func blob(container: String, name: String, range: ByteRange?, conditions: BlobConditions) async throws -> Blob?
    /// Stages a block of a blob to be committed by ``commitBlocks(container:name:blocks:settings:conditions:)``
    /// (Azure's Put Block); staging an id again replaces its data. The blob itself is unchanged.
    func stageBlock(container: String, name: String, blockID: String, data: [UInt8]) async throws
    /// Makes the blob the listed blocks in order (Azure's Put Block List), when `conditions` allow,
    /// and drops its other blocks. An id that is not there as the list says is
    /// ``StorageError/Reason/invalidInput`` (InvalidBlockList).
    @discardableResult
    func commitBlocks(
        container: String,
        name: String,
        blocks: [BlockReference],
        settings: BlobSettings,
        conditions: BlobConditions
    ) async throws
        -> BlobProperties
    /// A blob's committed and staged blocks (Azure's Get Block List). A blob that neither exists
    /// nor has staged blocks is ``StorageError/Reason/notFound`` (BlobNotFound).
    func blockList(container: String, name: String) async throws -> BlockList
    /// Deletes a blob that must exist, when `conditions` allow.
    func deleteBlob(container: String, name: String, conditions: BlobConditions) async throws
    func deleteAllBlobs(container: String) async throws
}

extension StorageAccount {
    /// Encodes what ``query(table:_:from:limit:)`` returns, for an account that keeps entities
    /// otherwise.
    package func storedQuery(
        table: String,
        _ query: EntityQuery,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> StoredEntityPage {
        try await storedQueryByEncoding(table: table, query, from: from, limit: limit)
    }

    /// ``storedQuery(table:_:from:limit:)`` by encoding the entities of a query, for any query.
    package func storedQueryByEncoding(
        table: String,
        _ query: EntityQuery,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> StoredEntityPage {
        let page = try await self.query(table: table, query, from: from, limit: limit)
        return StoredEntityPage(
            entities: page.entities.map { StoredEntity(EncodedEntity($0), timestamp: $0.timestamp, etag: $0.etag) },
            next: page.next
        )
    }

    /// One entity, with its Timestamp and ETag; nil when it (or its table) does not exist.
    package func entity(table: String, partitionKey: String, rowKey: String) async throws -> Entity? {
        try await lookUpEntity(table: table, partitionKey: partitionKey, rowKey: rowKey).entity
    }

    /// Encodes and writes entities.
    package func write(_ entities: [Entity], table: String, mode: WriteMode) async throws {
        try await write(entities.map(EncodedEntity.init), table: table, mode: mode)
    }

    /// A page of a table or partition.
    package func entities(
        table: String,
        partition: String?,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> EntityPage {
        try await query(table: table, EntityQuery(partition: partition), from: from, limit: limit)
    }

    /// Every entity the query matches, one page at a time.
    package func forEachEntity(
        table: String,
        _ query: EntityQuery = .all,
        pageSize: Int = 1000,
        _ body: (Entity) throws -> Void
    ) async throws {
        try await forEachPageReadingAhead(
            { from in try await self.query(table: table, query, from: from, limit: pageSize) },
            next: { $0.next },
            { page in for entity in page.entities { try body(entity) } }
        )
    }

    /// Every entity of a table or partition, one page at a time.
    package func forEachEntity(
        table: String,
        partition: String?,
        pageSize: Int = 1000,
        _ body: (Entity) throws -> Void
    ) async throws {
        try await forEachEntity(table: table, EntityQuery(partition: partition), pageSize: pageSize, body)
    }

    /// Every entity's keys and digest, one page at a time.
    package func forEachDigest(
        table: String,
        partition: String? = nil,
        pageSize: Int = 5000,
        _ body: (KeyedDigest) throws -> Void
    ) async throws {
        try await forEachPageReadingAhead(
            { from in try await self.entityDigests(table: table, partition: partition, from: from, limit: pageSize) },
            next: { $0.next },
            { page in for digest in page.digests { try body(digest) } }
        )
    }

    /// Whether the table holds any entity (a missing table holds none): a read of one, never a count.
    package func holdsEntities(table: String) async throws -> Bool {
        do {
            return try await matchesAny(table: table, .all)
        } catch let error as StorageError where error.reason == .notFound {
            return false
        }
    }

    /// Whether any entity of the table matches `query`: pages of one until one holds an entity or none
    /// goes on. A page can be empty and still go on (Azure sends one when its time for a page runs out,
    /// `serve` when a filter passes over many rows), so only an empty last page means none.
    package func matchesAny(table: String, _ query: EntityQuery) async throws -> Bool {
        var from: ContinuationToken?
        repeat {
            let page = try await self.query(table: table, query, from: from, limit: 1)
            if !page.entities.isEmpty { return true }
            from = page.next
        } while from != nil
        return false
    }

    /// Creates a container without metadata unless one of that name exists; true when created.
    @discardableResult
    package func createContainerIfNotExists(_ container: String, access: ContainerAccess) async throws -> Bool {
        try await createContainerIfNotExists(container, access: access, metadata: [:])
    }

    /// Commits blocks as a blob of `contentType` with no other settings.
    @discardableResult
    package func commitBlocks(
        container: String,
        name: String,
        blocks: [BlockReference],
        contentType: String,
        conditions: BlobConditions
    ) async throws
        -> BlobProperties
    {
        try await commitBlocks(
            container: container,
            name: name,
            blocks: blocks,
            settings: BlobSettings(contentType: contentType),
            conditions: conditions
        )
    }

    /// A page of the container's blobs with content (``blobPage(container:prefix:from:limit:includeUncommitted:)``
    /// without the uncommitted ones).
    package func blobPage(container: String, prefix: String, from marker: String?, limit: Int) async throws -> BlobPage
    {
        try await blobPage(container: container, prefix: prefix, from: marker, limit: limit, includeUncommitted: false)
    }

    /// The container's public access level; nil when there is no such container.
    package func containerAccess(_ container: String) async throws -> ContainerAccess? {
        try await containerProperties(container)?.access
    }

    /// Every blob of the container whose name starts with `prefix`, sorted by name, read page by page.
    package func blobProperties(container: String, prefix: String = "") async throws -> [BlobProperties] {
        var blobs: [BlobProperties] = []
        var marker: String?
        repeat {
            let page = try await blobPage(container: container, prefix: prefix, from: marker, limit: 5000)
            blobs += page.blobs
            marker = page.nextMarker
        } while marker != nil
        return blobs
    }

    package func putBlob(container: String, name: String, contentType: String, data: [UInt8]) async throws -> Bool {
        try await putBlob(container: container, name: name, contentType: contentType, data: data, conditions: .none)
    }

    /// A whole blob's content; nil when there is no such blob.
    package func blobData(container: String, name: String) async throws -> [UInt8]? {
        try await blob(container: container, name: name, range: nil, conditions: .none)?.data
    }
}

/// Walks pages to the end, fetching the next page while `body` handles the current one: the backend
/// reads and decodes (on its own threads, or over the network) while the caller formats or checks.
func forEachPageReadingAhead<Page: Sendable>(
    _ fetch: @escaping @Sendable (ContinuationToken?) async throws -> Page,
    next: @escaping @Sendable (Page) -> ContinuationToken?,
    _ body: (Page) throws -> Void
) async throws {
    var page = try await fetch(nil)
    while true {
        let following = next(page).map { from in Task { try await fetch(from) } }
        do {
            try body(page)
        } catch {
            following?.cancel()
            throw error
        }
        guard let following else { return }
        page = try await following.value
    }
}
