import HTTPTypes
import NIOCore
import SpeakEasyCore
import SpeakEasyFormats
import SpeakEasyModel
import SpeakEasyProtocol
import SpeakEasyStorage

/// The Table service's operations over the account's tables and entities.
///
/// Errors travel as ``TableServiceError``s, written in the format the request's `Accept` asks for;
/// ``wireError(_:)`` maps every other error a request meets (the storage account's, a filter's,
/// authorization's) onto one, in this one place.
struct TableService {
    let server: StorageServer
    let exchange: Exchange
    /// The request's path, with the account it names and in which style.
    let path: ResourcePath
    let format: TableWireFormat
    var account: any StorageAccount { server.account }
    var head: RequestHead { exchange.head }
    var query: QueryItems { exchange.query }

    /// Azure's limit on a request: 4 MiB for a batch, far less for one entity (1 MiB).
    static let maxBodySize = 4 << 20

    init(server: StorageServer, exchange: Exchange, path: ResourcePath) {
        self.server = server
        self.exchange = exchange
        self.path = path
        format = TableWireFormat(answering: exchange.head)
    }

    /// Where the replies say the service answers: the request's host, in the request's style.
    var endpoint: TableEndpoint {
        TableEndpoint(
            url: path.baseURL(host: head.header("Host") ?? server.configuration.host),
            account: server.configuration.accountName
        )
    }

    /// The reply to `request`; what it throws is a ``TableServiceError``, or an error no map knows (a bug).
    func respond(to request: ServiceRequest) async throws -> ServiceResponse {
        do {
            return try await serve(request)
        } catch {
            throw Self.wireError(error)
        }
    }

    /// The Table service's wire error for `error`, a request's refusal: the one map from the errors
    /// the service meets to what it answers. An error it does not know is handed on as it is.
    static func wireError(_ error: any Error) -> any Error {
        switch error {
        case let error as TableServiceError: error
        case let error as StorageError: TableServiceError(error)
        case let error as AuthorizationError: TableServiceError(error)
        case let error as FilterSyntaxError: TableServiceError(error)
        case is BodyTooLarge: TableServiceError.requestBodyTooLarge
        default: error
        }
    }

    private func serve(_ request: ServiceRequest) async throws -> ServiceResponse {
        if TableWireFormat.asksJSONTooEarly(head) { throw TableServiceError.jsonFormatNotSupported }
        if path.first == nil { return try await serveAccount(request) }
        let resource = try TableResourcePath(parsing: head.path)
        let body = ["POST", "PUT", "MERGE", "PATCH"].contains(head.method) ? try self.body(request) : []
        // A batch is read first: the table its operations name is what a SAS must cover.
        let batch =
            resource == .batch ? try TableBatchRequest.read(body, contentType: head.header("Content-Type")) : nil
        // Decided from the head before the body was read, but for a batch under a SAS (TableService+Admission).
        let authentication: RequestAuthentication
        if let admitted = request.authentication {
            authentication = admitted
        } else {
            authentication = try await authenticate(resource, batch: batch)
        }
        let access = try Access(authentication)
        if query["comp"] == "acl", case .entities(let table) = resource {
            return try await tableACL(table, body: body, access: access)
        }
        let ifMatch = head.header("If-Match")
        switch (head.method, resource) {
        case ("GET", .tables):
            try access.permit(.listTables)
            return try await queryTables()
        case ("POST", .tables):
            try access.permit(.createTable)
            return try await createTable(body: body)
        case ("DELETE", .table(let name)):
            try access.permit(.deleteTable)
            return try await deleteTable(name)
        case ("GET", .entities(let table)):
            try access.permit(.queryEntities)
            return try await queryEntities(table, within: access.keyRange)
        case ("POST", .entities(let table)):
            try access.permit(.insertEntity)
            return try await insert(table, body: body, access: access)
        case ("GET", .entity(let table, let partitionKey, let rowKey)):
            try access.permit(.getEntity, partitionKey: partitionKey, rowKey: rowKey)
            return try await getEntity(table, partitionKey, rowKey)
        case ("PUT", .entity(let table, let partitionKey, let rowKey)):
            try access.permit(
                ifMatch == nil ? .insertOrReplaceEntity : .updateEntity,
                partitionKey: partitionKey,
                rowKey: rowKey
            )
            return try await write(table, partitionKey, rowKey, merge: false, body: body)
        case ("MERGE", .entity(let table, let partitionKey, let rowKey)),
            ("PATCH", .entity(let table, let partitionKey, let rowKey)):
            try access.permit(
                ifMatch == nil ? .insertOrMergeEntity : .mergeEntity,
                partitionKey: partitionKey,
                rowKey: rowKey
            )
            return try await write(table, partitionKey, rowKey, merge: true, body: body)
        case ("DELETE", .entity(let table, let partitionKey, let rowKey)):
            try access.permit(.deleteEntity, partitionKey: partitionKey, rowKey: rowKey)
            return try await delete(table, partitionKey, rowKey)
        case ("POST", .batch):
            return try await self.batch(batch!, access: access)
        default:
            throw TableServiceError.notImplemented(
                "The requested operation (\(head.method) on this resource) is not supported."
            )
        }
    }

    /// What a request's credentials allow: everything with the account key; what its permissions and
    /// key range allow with a SAS. Tables have no public access: an anonymous request is refused.
    struct Access {
        let authentication: RequestAuthentication

        init(_ authentication: RequestAuthentication) throws(AuthorizationError) {
            guard authentication != .anonymous else {
                throw AuthorizationError(
                    .authenticationFailed,
                    detail: "The request carries neither an Authorization header nor a shared access signature."
                )
            }
            self.authentication = authentication
        }

        func permit(
            _ operation: SASOperation,
            partitionKey: String? = nil,
            rowKey: String? = nil
        ) throws(AuthorizationError) {
            guard case .sharedAccessSignature(let grant) = authentication else { return }
            try grant.authorize(operation)
            if let partitionKey, let rowKey { try grant.authorizeEntity(partitionKey: partitionKey, rowKey: rowKey) }
        }

        /// Whether a SAS's key range reaches the entity.
        func permit(entity partitionKey: String, _ rowKey: String) throws(AuthorizationError) {
            guard case .sharedAccessSignature(let grant) = authentication else { return }
            try grant.authorizeEntity(partitionKey: partitionKey, rowKey: rowKey)
        }

        var keyRange: TableKeyRange? {
            guard case .sharedAccessSignature(let grant) = authentication, let range = grant.keyRange,
                !range.isUnbounded
            else { return nil }
            return range
        }
    }

    private func body(_ request: ServiceRequest) throws -> [UInt8] {
        try request.collectBody(upTo: Self.maxBodySize)
    }

    // MARK: The service

    /// A request of the account itself: Get and Set Table Service Properties.
    private func serveAccount(_ request: ServiceRequest) async throws -> ServiceResponse {
        guard query["restype"] == "service", query["comp"] == "properties", ["GET", "PUT"].contains(head.method) else {
            throw TableServiceError.notImplemented(
                "The requested operation (\(head.method) of the account) is not supported."
            )
        }
        let authentication: RequestAuthentication
        if let admitted = request.authentication {
            authentication = admitted
        } else {
            authentication = try await authenticate(target: .service)
        }
        let access = try Access(authentication)
        guard let store = account as? any KeepsServiceProperties else {
            throw TableServiceError.notImplemented("This store does not keep service properties.")
        }
        let stored = try await store.serviceProperties("table").map { try ServiceProperties(reading: $0) } ?? .defaults
        var headers = HTTPFields()
        headers[.contentType] = "application/xml"
        if head.method == "GET" {
            try access.permit(.getTableServiceProperties)
            return ServiceResponse(status: .ok, headers: headers, body: ByteBuffer(bytes: stored.write()))
        }
        try access.permit(.setTableServiceProperties)
        let update = try ServiceProperties(reading: try self.body(request))
        try await store.setServiceProperties("table", stored.merged(with: update).write())
        return ServiceResponse(status: .accepted)
    }

    // MARK: Tables

    private func queryTables() async throws -> ServiceResponse {
        var names = try await account.tableNames()
        // An empty $filter filters nothing, as in Azure (Azurite issues #1573, #1880).
        if let text = query["$filter"], !text.isEmpty {
            let filter = try Self.filter(text)
            names = names.filter {
                filter.matches(Entity(partitionKey: "", rowKey: $0, properties: [Property("TableName", .string($0))]))
            }
        }
        if let after = query["NextTableName"] {
            names = names.filter { !$0.utf8.lexicographicallyPrecedes(after.utf8) }
        }
        let top = try self.top()
        var headers = HTTPFields()
        if names.count > top {
            headers[.xMsContinuationNextTableName] = names[top]
            names = Array(names.prefix(top))
        }
        let body: [UInt8] =
            switch format {
            case .json(let metadata): TableJSONWriter(endpoint: endpoint, metadata: metadata).tablesResponse(names)
            case .atom: TableAtomWriter(endpoint: endpoint, updated: exchange.now).tablesFeed(names)
            }
        return reply(.ok, headers: headers, body: body)
    }

    private func createTable(body: [UInt8]) async throws -> ServiceResponse {
        let name = try TableNameBody.read(body, contentType: head.header("Content-Type"))
        try TableName.check(name)
        guard try await account.createTableIfNotExists(name) else {
            throw TableServiceError(status: 409, code: "TableAlreadyExists", "The table specified already exists.")
        }
        var headers = HTTPFields()
        headers[.location] = TableResourcePath.table(name).url(endpoint: endpoint.url)
        if returnsNoContent {
            headers[.preferenceApplied] = "return-no-content"
            return reply(.noContent, headers: headers)
        }
        let body: [UInt8] =
            switch format {
            case .json(let metadata): TableJSONWriter(endpoint: endpoint, metadata: metadata).tableResponse(name)
            case .atom: TableAtomWriter(endpoint: endpoint, updated: exchange.now).tableEntry(name)
            }
        if head.header("Prefer") != nil { headers[.preferenceApplied] = "return-content" }
        return reply(.created, headers: headers, body: body)
    }

    /// Get and Set Table ACL: the table's stored access policies, which a table SAS names with `si`.
    private func tableACL(_ table: String, body: [UInt8], access: Access) async throws -> ServiceResponse {
        switch head.method {
        case "GET":
            try access.permit(.getTableACL)
            guard let policies = try await account.tablePolicies(table) else { throw Self.tableNotFound }
            var headers = HTTPFields()
            headers[.contentType] = "application/xml"
            return ServiceResponse(
                status: .ok,
                headers: headers,
                body: ByteBuffer(bytes: SignedIdentifiersXML.write(policies))
            )
        case "PUT":
            try access.permit(.setTableACL)
            let policies: [StoredAccessPolicy]
            do {
                policies = try SignedIdentifiersXML.read(body)
            } catch {
                throw TableServiceError(status: error.status, code: error.code, error.message)
            }
            try await account.setTablePolicies(table, policies)
            return ServiceResponse(status: .noContent)
        default:
            throw TableServiceError.notImplemented(
                "The requested operation (\(head.method) of a table's ACL) is not supported."
            )
        }
    }

    static let tableNotFound = TableServiceError(
        status: 404,
        code: "TableNotFound",
        "The table specified does not exist."
    )

    private func deleteTable(_ name: String) async throws -> ServiceResponse {
        try await account.deleteTable(name)
        return reply(.noContent)
    }

    // MARK: Entities

    private func queryEntities(_ table: String, within keyRange: TableKeyRange?) async throws -> ServiceResponse {
        let filter = try query["$filter"].flatMap { $0.isEmpty ? nil : $0 }.map(Self.filter)
        let select = query["$select"].flatMap { text in
            text.isEmpty ? nil : text.split(separator: ",").map { String($0.drop { $0 == " " }) }
        }
        let limit = min(try top(), server.configuration.pageSize)
        let from = try TableContinuation.token(
            nextPartitionKey: query["NextPartitionKey"],
            nextRowKey: query["NextRowKey"]
        )
        // $top=0 asks for no entity: Azure answers an empty page (Azurite issue #1428), or the table's 404.
        let none = limit == 0
        if case .json(let metadata) = format, metadata != .full, select == nil, filter?.isOnKeys ?? true, !none {
            return try await queryStoredEntities(
                table,
                EntityQuery(filter: filter),
                from: from,
                limit: limit,
                metadata: metadata,
                within: keyRange
            )
        }
        var page = try await account.query(
            table: table,
            EntityQuery(filter: filter, select: select),
            from: from,
            limit: max(limit, 1)
        )
        if none { page = EntityPage(entities: [], next: nil) }
        // A SAS's key range hides what lies outside it (the page may then be short; paging goes on).
        if let keyRange {
            page.entities.removeAll { !keyRange.contains(partitionKey: $0.partitionKey, rowKey: $0.rowKey) }
        }
        var headers = HTTPFields()
        for (name, value) in TableContinuation.headers(for: page.next) { headers[HTTPField.Name(name)!] = value }
        switch format {
        case .json(let metadata):
            // Written into the reply's buffer piece by piece (about 1.5 KB an entity, as seeded).
            var buffer = ByteBufferAllocator().buffer(capacity: 1024 + page.entities.count * 1536)
            TableJSONWriter(endpoint: endpoint, metadata: metadata).queryResponse(page.entities, table: table) {
                buffer.writeBytes($0)
            }
            return reply(.ok, headers: headers, buffer: buffer)
        case .atom:
            return reply(
                .ok,
                headers: headers,
                body: try TableAtomWriter(endpoint: endpoint, updated: exchange.now).feed(page.entities, table: table)
            )
        }
    }

    /// A query whose reply needs no property decoded (no `$select`, a filter on the keys alone, JSON
    /// without full metadata): the stored properties are copied into the reply, in the wire's spelling.
    private func queryStoredEntities(
        _ table: String,
        _ entityQuery: EntityQuery,
        from: ContinuationToken?,
        limit: Int,
        metadata: JSONMetadata,
        within keyRange: TableKeyRange?
    ) async throws -> ServiceResponse {
        var page = try await account.storedQuery(table: table, entityQuery, from: from, limit: limit)
        if let keyRange {
            page.removeAll { !keyRange.contains(partitionKey: $0, rowKey: $1) }
        }
        var headers = HTTPFields()
        for (name, value) in TableContinuation.headers(for: page.next) { headers[HTTPField.Name(name)!] = value }
        let writer = TableJSONWriter(endpoint: endpoint, metadata: metadata)
        var buffer = ByteBufferAllocator().buffer(
            capacity: 1024 + page.bytes.count + page.count * 192
        )
        buffer.writeBytes(writer.feedOpening(fragment: table))
        do {
            try await Self.writeInHalves(page, writer: writer, into: &buffer)
        } catch {
            throw StorageError(.corrupt, account: "", "A stored entity's properties are not valid JSON: \(error)")
        }
        buffer.writeBytes(TableJSONWriter.feedClosing)
        return reply(.ok, headers: headers, buffer: buffer)
    }

    /// A page's entities written into `buffer`; from 200 on, the second half by a child task while this
    /// one writes the first, so that one client reading a partition page by page keeps both cores busy
    /// (1a80df4: 160k → 175k entities/s). The request's task runs on its connection's event loop, and
    /// the child inherits that, so it asks for Swift's global concurrent executor instead: CPU work may
    /// go to Swift's pool, blocking work only to the store's SQLite workers.
    private static func writeInHalves(
        _ page: StoredEntityPage,
        writer: TableJSONWriter,
        into buffer: inout ByteBuffer
    ) async throws {
        let middle = page.count / 2
        guard page.count >= 200 else { return try writeInPieces(page, 0..<page.count, writer: writer, into: &buffer) }
        try await withThrowingTaskGroup(of: [UInt8].self) { group in
            group.addTask(executorPreference: globalConcurrentExecutor) {
                var out: [UInt8] = []
                out.reserveCapacity((page.count - middle) * 1600)
                try writer.appendStored(page, middle..<page.count, afterOthers: true, to: &out)
                return out
            }
            try writeInPieces(page, 0..<middle, writer: writer, into: &buffer)
            buffer.writeBytes(try await group.next()!)
        }
    }

    /// The page's entities at `indices` written into `buffer` in pieces of 32, each copied in while in
    /// cache.
    private static func writeInPieces(
        _ page: StoredEntityPage,
        _ indices: Range<Int>,
        writer: TableJSONWriter,
        into buffer: inout ByteBuffer
    ) throws {
        var piece: [UInt8] = []
        piece.reserveCapacity(64 << 10)
        for start in stride(from: indices.lowerBound, to: indices.upperBound, by: 32) {
            piece.removeAll(keepingCapacity: true)
            try writer.appendStored(
                page,
                start..<min(start + 32, indices.upperBound),
                afterOthers: start > indices.lowerBound,
                to: &piece
            )
            buffer.writeBytes(piece)
        }
    }

    private func getEntity(_ table: String, _ partitionKey: String, _ rowKey: String) async throws -> ServiceResponse {
        var entity: Entity
        switch try await account.lookUpEntity(table: table, partitionKey: partitionKey, rowKey: rowKey) {
        case .found(let found): entity = found
        case .noSuchTable:
            throw TableServiceError(status: 404, code: "TableNotFound", "The table specified does not exist.")
        case .noSuchEntity:
            throw TableServiceError(status: 404, code: "ResourceNotFound", "The specified resource does not exist.")
        }
        if let select = query["$select"], !select.isEmpty {
            let names = Set(select.split(separator: ",").map { String($0.drop { $0 == " " }) })
            entity.properties = entity.properties.filter { names.contains($0.name) }
        }
        var headers = HTTPFields()
        if let etag = entity.etag { headers[.eTag] = etag }
        return reply(.ok, headers: headers, body: try entityBody(entity, table: table))
    }

    private func insert(_ table: String, body: [UInt8], access: Access) async throws -> ServiceResponse {
        let entity = try TableEntityBody.read(body, contentType: head.header("Content-Type"))
        try access.permit(.insertEntity, partitionKey: entity.partitionKey, rowKey: entity.rowKey)
        let etag = try await transact([EntityOperation(.insert, EncodedEntity(entity))], table: table)[0]
        var headers = HTTPFields()
        if let etag { headers[.eTag] = etag }
        headers[.location] = TableResourcePath.entity(
            table: table,
            partitionKey: entity.partitionKey,
            rowKey: entity.rowKey
        ).url(endpoint: endpoint.url)
        if returnsNoContent {
            headers[.preferenceApplied] = "return-no-content"
            return reply(.noContent, headers: headers)
        }
        if head.header("Prefer") != nil { headers[.preferenceApplied] = "return-content" }
        let stored = Self.inserted(entity, etag: etag, timestamp: etag.flatMap(TableETag.timestamp(of:)))
        return reply(.created, headers: headers, body: try entityBody(stored, table: table))
    }

    private func write(
        _ table: String,
        _ partitionKey: String,
        _ rowKey: String,
        merge: Bool,
        body: [UInt8]
    ) async throws -> ServiceResponse {
        // The URL names the entity; keys in the body, when there, must agree.
        let entity = try TableEntityBody.read(
            body,
            contentType: head.header("Content-Type"),
            keys: (partitionKey, rowKey)
        )
        try Self.checkCondition(head.header("If-Match"))
        let kind: EntityOperation.Kind =
            switch (head.header("If-Match"), merge) {
            case (let etag?, false): .update(ifMatch: etag)
            case (let etag?, true): .merge(ifMatch: etag)
            case (nil, false): .insertOrReplace
            case (nil, true): .insertOrMerge
            }
        let etag = try await transact([EntityOperation(kind, EncodedEntity(entity))], table: table)[0]
        var headers = HTTPFields()
        if let etag { headers[.eTag] = etag }
        return reply(.noContent, headers: headers)
    }

    private func delete(_ table: String, _ partitionKey: String, _ rowKey: String) async throws -> ServiceResponse {
        guard let ifMatch = head.header("If-Match") else {
            throw TableServiceError.missingRequiredHeader("If-Match")
        }
        try Self.checkCondition(ifMatch)
        _ = try await transact(
            [
                EntityOperation(
                    .delete(ifMatch: ifMatch),
                    EncodedEntity(Entity(partitionKey: partitionKey, rowKey: rowKey))
                )
            ],
            table: table
        )
        return reply(.noContent)
    }

    // MARK: Batches

    private func batch(_ request: TableBatchRequest, access: Access) async throws -> ServiceResponse {
        var permitted: Set<SASOperation> = []
        for operation in request.operations {
            let kind: SASOperation =
                switch operation.action {
                case .insert: .insertEntity
                case .update: .updateEntity
                case .merge: .mergeEntity
                case .insertOrReplace: .insertOrReplaceEntity
                case .insertOrMerge: .insertOrMergeEntity
                case .delete: .deleteEntity
                case .retrieve: .getEntity
                }
            // The permissions once per kind of operation; the key range for every entity.
            if permitted.insert(kind).inserted { try access.permit(kind) }
            try access.permit(entity: operation.partitionKey, operation.rowKey)
        }
        let (boundary, changeset) = TableBatchResponse.newBoundaries()
        let parts: [TableBatchResponse.Part]
        if let first = request.operations.first, first.action == .retrieve {
            let entity = try await account.entity(
                table: first.table,
                partitionKey: first.partitionKey,
                rowKey: first.rowKey
            )
            parts = [
                entity.map {
                    TableBatchResponse.Part(
                        status: 200,
                        headers: [.init("Content-Type", format.contentType)],
                        body: (try? entityBody($0, table: first.table)) ?? []
                    )
                }
                    ?? TableBatchResponse.failure(
                        TableServiceError(
                            status: 404,
                            code: "ResourceNotFound",
                            "The specified resource does not exist.",
                            operationIndex: 0
                        ),
                        contentID: first.contentID,
                        format: format,
                        requestID: exchange.requestID,
                        time: exchange.now
                    )
            ]
        } else if let refusal = request.refusal {
            // Refused while read: nothing was written, and the one response says which operation.
            parts = [
                TableBatchResponse.failure(
                    refusal,
                    contentID: nil,
                    format: format,
                    requestID: exchange.requestID,
                    time: exchange.now
                )
            ]
        } else {
            parts = try await runChangeset(request.operations)
        }
        let response = TableBatchResponse(parts: parts, isChangeset: request.isChangeset)
        var headers = HTTPFields()
        headers[.contentType] = TableBatchResponse.contentType(boundary: boundary)
        return ServiceResponse(
            status: .accepted,
            headers: headers,
            body: ByteBuffer(bytes: response.write(boundary: boundary, changesetBoundary: changeset))
        )
    }

    private func runChangeset(_ operations: [TableBatchOperation]) async throws -> [TableBatchResponse.Part] {
        func failure(_ error: TableServiceError) -> [TableBatchResponse.Part] {
            let index = error.operationIndex ?? 0
            return [
                TableBatchResponse.failure(
                    error.at(operation: index),
                    contentID: operations.indices.contains(index) ? operations[index].contentID : nil,
                    format: format,
                    requestID: exchange.requestID,
                    time: exchange.now
                )
            ]
        }
        let table = operations.first?.table ?? ""
        var storageOperations: [EntityOperation] = []
        for (index, operation) in operations.enumerated() {
            guard operation.table == table else {
                return failure(
                    TableServiceError.invalidInput("All operations of a batch must address one table.").at(
                        operation: index
                    )
                )
            }
            let encoded = EncodedEntity(
                operation.entity ?? Entity(partitionKey: operation.partitionKey, rowKey: operation.rowKey)
            )
            guard let kind = operation.action.operationKind else {
                return failure(
                    TableServiceError.invalidInput("A retrieve operation must be alone in a batch.").at(
                        operation: index
                    )
                )
            }
            storageOperations.append(EntityOperation(kind, encoded))
        }
        let etags: [String?]
        do {
            etags = try await account.transact(storageOperations, table: table)
        } catch let error as StorageError {
            return failure(TableServiceError(error, operationIndex: error.operationIndex ?? 0))
        }
        // One transaction, one time: the ETags are all the same, and the Timestamp is read from the first.
        let timestamp = etags.lazy.compactMap { $0 }.first.flatMap(TableETag.timestamp(of:))
        return zip(operations, etags).map { operation, etag in
            var stored: Entity?
            if case .insert = operation.action, !operation.returnNoContent, let entity = operation.entity {
                stored = Self.inserted(entity, etag: etag, timestamp: timestamp)
            }
            return TableBatchResponse.success(operation, etag: etag, entity: stored, endpoint: endpoint, format: format)
        }
    }

    // MARK: Helpers

    /// An inserted entity as the store now holds it, for the reply: what was sent, with the Timestamp
    /// and ETag of the write (the ETag is made from the Timestamp), so the reply needs no read back.
    private static func inserted(_ entity: Entity, etag: String?, timestamp: EdmDateTime?) -> Entity {
        var stored = entity
        stored.etag = etag
        stored.timestamp = timestamp
        return stored
    }

    private func transact(_ operations: [EntityOperation], table: String) async throws -> [String?] {
        do {
            return try await account.transact(operations, table: table)
        } catch var error as StorageError {
            error.operationIndex = nil
            throw error
        }
    }

    /// An `If-Match` that is neither `*` nor an ETag is malformed: 400, not a failed condition.
    static func checkCondition(_ ifMatch: String?) throws(TableServiceError) {
        guard let ifMatch, !TableETag.isCondition(ifMatch) else { return }
        throw TableServiceError.invalidInput("The If-Match value '\(ifMatch.prefix(64))' is not an ETag.")
    }

    private var returnsNoContent: Bool { head.header("Prefer")?.containsIgnoringASCIICase("return-no-content") == true }

    private func entityBody(_ entity: Entity, table: String) throws -> [UInt8] {
        switch format {
        case .json(let metadata):
            TableJSONWriter(endpoint: endpoint, metadata: metadata).entityResponse(entity, table: table)
        case .atom: try TableAtomWriter(endpoint: endpoint, updated: exchange.now).entry(entity, table: table)
        }
    }

    private func top() throws(TableServiceError) -> Int {
        guard let text = query["$top"] else { return 1000 }
        guard let top = Int(text), (0...1000).contains(top) else {
            throw TableServiceError.invalidInput("The $top value \(text) is not a number from 0 to 1000.")
        }
        return top
    }

    private static func filter(_ text: String) throws(FilterSyntaxError) -> EntityFilter {
        try EntityFilter(parsing: text)
    }

    private func reply(
        _ status: HTTPResponse.Status,
        headers: HTTPFields = HTTPFields(),
        body: [UInt8]? = nil
    ) -> ServiceResponse {
        reply(status, headers: headers, buffer: body.map { ByteBuffer(bytes: $0) })
    }

    private func reply(
        _ status: HTTPResponse.Status,
        headers: HTTPFields = HTTPFields(),
        buffer: ByteBuffer?
    ) -> ServiceResponse {
        var headers = headers
        headers.append(HTTPField(name: .cacheControl, value: "no-cache"))
        headers.append(HTTPField(name: .xContentTypeOptions, value: "nosniff"))
        headers.append(HTTPField(name: .dataServiceVersion, value: "3.0;"))
        guard let buffer else { return ServiceResponse(status: status, headers: headers) }
        headers.append(HTTPField(name: .contentType, value: format.contentType))
        return ServiceResponse(status: status, headers: headers, body: buffer)
    }
}
