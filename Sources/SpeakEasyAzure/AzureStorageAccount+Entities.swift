import SpeakEasyCore
package import SpeakEasyModel
import SpeakEasyProtocol
package import SpeakEasyStorage

/// Entities: bulk writes as entity-group transactions in parallel, single-entity writes with
/// If-Match, and queries a page per request.
extension AzureStorageAccount: RepliesInJSON {
    /// One `$batch` per transaction group, `parallel` at once; groups are independent (one partition,
    /// each key once), so the order they land in does not matter. Keys repeated in an upsert call
    /// must land in order: such a call sends its groups one after another, cut at the repeats.
    package func write(_ entities: [EncodedEntity], table: String, mode: WriteMode) async throws {
        guard !entities.isEmpty else { return }
        var groups = TransactionGroups.split(entities)
        var seen = Set<EntityKeys>()
        let repeated = entities.first { !seen.insert(EntityKeys($0)).inserted }
        if let repeated, mode == .insert {
            throw StorageError(
                .alreadyExists,
                account: accountName,
                "entity (PartitionKey '\(repeated.partitionKey)', RowKey '\(repeated.rowKey)') is inserted twice in one write",
                code: "EntityAlreadyExists"
            )
        }
        if repeated != nil { groups = groups.flatMap(Self.cutAtRepeatedKeys) }
        try await forEachConcurrently(groups, limit: repeated != nil ? 1 : parallel) { group in
            try await self.writeGroup(group, table: table, mode: mode)
        }
    }

    private func writeGroup(_ group: [EncodedEntity], table: String, mode: WriteMode) async throws {
        let action = TableBatchOperation.Action(EntityOperation.Kind(mode))
        let operations = group.map { entity in
            var operation = TableBatchOperation(
                action,
                table: table,
                partitionKey: entity.partitionKey,
                rowKey: entity.rowKey,
                returnNoContent: true
            )
            operation.body = TableEntityBody.writeJSON(entity)
            return operation
        }
        let reply = try await sendBatch(operations)
        let failure: StorageError
        do {
            _ = try readBatch(reply, operations)
            return
        } catch {
            failure = error
        }
        // An earlier try may have been committed and its reply lost. A transaction lands whole, so
        // then every entity is there as written, and the insert is done.
        guard mode == .insert, failure.reason == .alreadyExists, reply.attempts > 1,
            try await isStored(group, table: table)
        else { throw failure }
    }

    /// Whether every entity of a group (one partition) is stored with exactly this content.
    private func isStored(_ group: [EncodedEntity], table: String) async throws -> Bool {
        var expected: [EntityKeys: EntityDigest] = [:]
        for entity in group { expected[EntityKeys(entity)] = EntityDigest(try entity.decoded()) }
        let rows = group.map(\.rowKey).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let filter = EntityFilter.and(
            .and(.key("PartitionKey", .eq, group[0].partitionKey), .key("RowKey", .ge, rows[0])),
            .key("RowKey", .le, rows[rows.count - 1])
        )
        var found = 0
        var from: ContinuationToken?
        repeat {
            let page = try await queryPage(table: table, filter: filter, select: nil, from: from, limit: 1000)
            for entity in page.entities {
                guard let digest = expected[EntityKeys(partitionKey: entity.partitionKey, rowKey: entity.rowKey)] else {
                    continue
                }
                guard digest == EntityDigest(entity.content) else { return false }
                found += 1
            }
            from = page.next
        } while from != nil
        return found == group.count
    }

    package func update(_ entity: EncodedEntity, table: String, merge: Bool, ifMatch: String) async throws -> String {
        let response = try await send(
            StorageRequest(
                .table,
                merge ? "MERGE" : "PUT",
                entityPath(table, entity.partitionKey, entity.rowKey),
                headers: Self.tableHeaders + [("Content-Type", "application/json"), ("If-Match", ifMatch)],
                body: TableEntityBody.writeJSON(entity)
            )
        )
        guard let etag = response.header("ETag") else { throw unreadable("reply to an update", "it has no ETag") }
        return etag
    }

    package func transact(_ operations: [EntityOperation], table: String) async throws -> [String?] {
        try TransactionGroups.check(operations, account: accountName)
        let batch = operations.map { operation in
            let action = TableBatchOperation.Action(operation.kind)
            var sent = TableBatchOperation(
                action,
                table: table,
                partitionKey: operation.entity.partitionKey,
                rowKey: operation.entity.rowKey,
                returnNoContent: true
            )
            if case .delete = action {} else { sent.body = TableEntityBody.writeJSON(operation.entity) }
            return sent
        }
        let response = try readBatch(try await sendBatch(batch), batch)
        return zip(batch, response.parts).map { operation, part in
            if case .delete = operation.action { return nil }
            return part.header("ETag")
        }
    }

    package func deleteEntity(table: String, partitionKey: String, rowKey: String, ifMatch: String) async throws {
        _ = try await send(
            StorageRequest(
                .table,
                "DELETE",
                entityPath(table, partitionKey, rowKey),
                headers: Self.tableHeaders + [("If-Match", ifMatch)]
            )
        )
    }

    package func lookUpEntity(table: String, partitionKey: String, rowKey: String) async throws -> EntityLookup {
        let response = try await http.send(
            StorageRequest(.table, "GET", entityPath(table, partitionKey, rowKey), headers: Self.tableHeaders)
        )
        guard response.status == 200 else {
            let failure = error(response, .table)
            guard failure.reason == .notFound else { throw failure }
            return failure.code == "TableNotFound" ? .noSuchTable : .noSuchEntity
        }
        do {
            var entity = try TableJSONReader.entity(response.body)
            if entity.etag == nil { entity.etag = response.header("ETag") }
            return .found(entity)
        } catch {
            throw unreadable("entity", error)
        }
    }

    package func query(
        table: String,
        _ query: EntityQuery,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> EntityPage {
        try page(of: try await queryReply(table: table, query, from: from, limit: limit))
    }

    package func queryReply(
        table: String,
        _ query: EntityQuery,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> (body: [UInt8], next: ContinuationToken?) {
        let partition = query.partition.map { EntityFilter.key("PartitionKey", .eq, $0) }
        return try await queryReply(
            table: table,
            filter: EntityFilter.all(of: [partition, query.filter]),
            select: query.select.map { ["PartitionKey", "RowKey", "Timestamp"] + $0 },
            from: from,
            limit: limit
        )
    }

    package func entities(inReply body: [UInt8]) throws(StorageError) -> [Entity] {
        do {
            return try TableJSONReader.entities(body)
        } catch {
            throw unreadable("page of entities", error)
        }
    }

    /// Pages of whole entities, hashed here: a partition of N entities costs ⌈N/1000⌉ requests,
    /// however many of them a caller then writes or skips.
    package func entityDigests(
        table: String,
        partition: String?,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> (digests: [KeyedDigest], next: ContinuationToken?) {
        let page: EntityPage
        do {
            page = try await query(table: table, EntityQuery(partition: partition), from: from, limit: limit)
        } catch let error as StorageError where error.reason == .notFound {
            return ([], nil)
        }
        return (
            page.entities.map {
                KeyedDigest(partitionKey: $0.partitionKey, rowKey: $0.rowKey, digest: EntityDigest($0.content))
            }, page.next
        )
    }

    /// One Query Entities request. A token the service gave is sent back verbatim; one made from keys
    /// becomes a condition on the keys, which every service reads the same way.
    func queryPage(
        table: String,
        filter: EntityFilter?,
        select: [String]?,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> EntityPage {
        try page(of: try await queryReply(table: table, filter: filter, select: select, from: from, limit: limit))
    }

    /// A reply's entities, decoded, and where the query goes on.
    private func page(of reply: (body: [UInt8], next: ContinuationToken?)) throws(StorageError) -> EntityPage {
        EntityPage(entities: try entities(inReply: reply.body), next: reply.next)
    }

    /// The body of one Query Entities reply, and where the query goes on.
    private func queryReply(
        table: String,
        filter: EntityFilter?,
        select: [String]?,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> (body: [UInt8], next: ContinuationToken?) {
        var filter = filter
        var query: [(name: String, value: String)] = []
        if let from {
            if from.serviceText != nil {
                query += TableContinuation.queryItems(for: from)
            } else {
                let start = EntityFilter.or(
                    .key("PartitionKey", .gt, from.partitionKey),
                    .and(.key("PartitionKey", .eq, from.partitionKey), .key("RowKey", .ge, from.rowKey))
                )
                filter = EntityFilter.all(of: [filter, start])
            }
        }
        if let filter { query.append(("$filter", filter.odataText)) }
        if let select { query.append(("$select", select.joined(separator: ","))) }
        query.append(("$top", String(min(max(limit, 1), 1000))))
        let response = try await send(
            StorageRequest(.table, "GET", "/\(table)()", query: query, headers: Self.tableHeaders)
        )
        return (response.body, TableContinuation.token(header: response.header))
    }

    // MARK: Batches

    private func sendBatch(_ operations: [TableBatchOperation]) async throws(StorageError) -> StorageResponse {
        let boundary = TableBatchRequest.newBoundary()
        let body = TableBatchRequest(operations: operations).write(
            endpoint: connection.tableEndpoint,
            boundary: boundary
        )
        let response = try await http.send(
            StorageRequest(
                .table,
                "POST",
                "/$batch",
                headers: Self.tableHeaders + [("Content-Type", TableBatchRequest.contentType(boundary: boundary))],
                body: body
            )
        )
        guard response.status == TableBatchResponse.status else { throw error(response, .table) }
        return response
    }

    /// The batch's answers, one per operation; a failed changeset is its failing operation's error,
    /// which names that entity, its index and the service's code.
    private func readBatch(
        _ response: StorageResponse,
        _ operations: [TableBatchOperation]
    ) throws(StorageError) -> TableBatchResponse {
        do {
            let batch = try TableBatchResponse.read(response.body, contentType: response.header("Content-Type"))
            guard batch.parts.count == operations.count else {
                throw unreadable("batch reply", "it answers \(batch.parts.count) of \(operations.count) operations")
            }
            return batch
        } catch let failure as TableServiceError {
            guard let index = failure.operationIndex, operations.indices.contains(index) else {
                throw StorageHTTPClient.storageError(
                    failure,
                    account: accountName,
                    "a batch of \(operations.count) failed: \(failure.message) [\(failure.code)]",
                    operationIndex: nil
                )
            }
            let failed = operations[index]
            throw StorageHTTPClient.storageError(
                failure,
                account: accountName,
                "operation \(index) of a batch of \(operations.count), entity (PartitionKey '\(failed.partitionKey)', RowKey '\(failed.rowKey)'): "
                    + "\(failure.message) [\(failure.code)]",
                operationIndex: index
            )
        } catch let failure as StorageError {
            throw failure
        } catch {
            throw unreadable("batch reply", error)
        }
    }

    private func entityPath(_ table: String, _ partitionKey: String, _ rowKey: String) -> String {
        "/" + TableResourcePath.entity(table: table, partitionKey: partitionKey, rowKey: rowKey).segment
    }

    /// A group cut where a key comes again, so that each part holds a key once, as a transaction must.
    private static func cutAtRepeatedKeys(_ group: [EncodedEntity]) -> [[EncodedEntity]] {
        var parts: [[EncodedEntity]] = [[]]
        var rows = Set<String>()
        for entity in group {
            if !rows.insert(entity.rowKey).inserted {
                parts.append([])
                rows = [entity.rowKey]
            }
            parts[parts.count - 1].append(entity)
        }
        return parts
    }
}

/// An entity's two keys, as a set holds them.
private struct EntityKeys: Hashable {
    var partitionKey: String
    var rowKey: String

    init(partitionKey: String, rowKey: String) {
        self.partitionKey = partitionKey
        self.rowKey = rowKey
    }

    init(_ entity: EncodedEntity) { self.init(partitionKey: entity.partitionKey, rowKey: entity.rowKey) }
}
