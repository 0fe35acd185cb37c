import Crypto
import HTTPTypes
import NIOCore
import SpeakEasyCore
import SpeakEasyModel
import SpeakEasyProtocol
import SpeakEasyStorage

/// The Blob service's operations over the account's containers and blobs.
///
/// Errors travel as ``BlobServiceError``s; ``wireError(_:)`` maps every other error a request meets
/// (the storage account's, authorization's) onto one, in this one place.
struct BlobService {
    let server: StorageServer
    let exchange: Exchange
    var account: any StorageAccount { server.account }
    var head: RequestHead { exchange.head }
    var query: QueryItems { exchange.query }

    /// The largest body a request may carry: a Put Blob or Put Block (clients switch to blocks above
    /// their single-put size, 64 MiB at most by default), kept well under the server's memory bound.
    static let maxBodySize = 64 << 20
    /// A block list names at most 50,000 blocks of at most 64 bytes' id.
    static let maxBlockListSize = 8 << 20
    static let maxResultsLimit = 5000
    /// The largest range whose MD5 Azure computes (`x-ms-range-get-content-md5`).
    static let maxRangeMD5Size = 4 << 20
    /// Five signed identifiers take well under a KiB; a body far past that is no ACL.
    static let maxACLSize = 64 << 10

    /// The reply to `request`; what it throws is a ``BlobServiceError``, or an error no map knows (a bug).
    func respond(to request: ServiceRequest, path: ResourcePath) async throws -> ServiceResponse {
        do {
            return try await serve(request, path: path)
        } catch {
            throw Self.wireError(error)
        }
    }

    /// The Blob service's wire error for `error`, a request's refusal: the one map from the errors
    /// the service meets to what it answers. An error it does not know is handed on as it is.
    static func wireError(_ error: any Error) -> any Error {
        switch error {
        case let error as BlobServiceError: error
        case let error as StorageError: BlobServiceError(error)
        case let error as AuthorizationError: BlobServiceError(error)
        case is BodyTooLarge: BlobServiceError.requestBodyTooLarge
        default: error
        }
    }

    private func serve(_ request: ServiceRequest, path: ResourcePath) async throws -> ServiceResponse {
        let method = head.method
        let restype = query["restype"]
        let comp = query["comp"]
        let blobName = try path.rest.map(BlobName.normalize)
        let authentication = try await authentication(of: request, path: path)
        /// A SAS must allow the operation; the account key and public access allow all that got here.
        func permit(_ operation: SASOperation) throws {
            if case .sharedAccessSignature(let grant) = authentication { try grant.authorize(operation) }
        }
        if let feature = UnclaimedBlobFeature.feature(
            method: method,
            comp: comp,
            service: path.first == nil,
            header: head.header
        ) {
            throw UnclaimedBlobFeature.error(feature)
        }
        guard let container = path.first else {
            switch (method, comp) {
            case ("GET", "list"), ("HEAD", "list"):
                try permit(.listContainers)
                return try await listContainers(path)
            default: throw unsupported()
            }
        }
        guard let blob = blobName else {
            guard restype == "container" else { throw unsupported() }
            switch (method, comp) {
            case ("PUT", nil):
                try permit(.createContainer)
                return try await createContainer(container)
            case ("DELETE", nil):
                try permit(.deleteContainer)
                return try await deleteContainer(container)
            case ("GET", nil), ("HEAD", nil), ("GET", "metadata"), ("HEAD", "metadata"):
                try permit(.getContainerProperties)
                return try await containerProperties(container)
            case ("PUT", "metadata"):
                try permit(.setContainerProperties)
                return try await setContainerMetadata(container)
            case ("GET", "acl"), ("HEAD", "acl"):
                try permit(.getContainerProperties)
                return try await containerACL(container)
            case ("PUT", "acl"):
                try permit(.setContainerProperties)
                return try await setContainerACL(container, body: try request.collectBody(upTo: Self.maxACLSize))
            case ("GET", "list"):
                try permit(.listBlobs)
                return try await listBlobs(container, path)
            default: throw unsupported()
            }
        }
        switch (method, comp) {
        case ("PUT", nil):
            if case .sharedAccessSignature = authentication {
                let exists =
                    try await account.blobProperties(container: container, name: blob, conditions: .none) != nil
                try permit(exists ? .overwriteBlob : .createBlob)
            }
            return try await putBlob(container, blob, data: try request.collectBody(upTo: Self.maxBodySize))
        case ("PUT", "block"):
            try permit(.putBlock)
            return try await putBlock(container, blob, data: try request.collectBody(upTo: Self.maxBodySize))
        case ("PUT", "blocklist"):
            try permit(.putBlockList)
            return try await putBlockList(container, blob, body: try request.collectBody(upTo: Self.maxBlockListSize))
        case ("GET", nil):
            try permit(.getBlob)
            return try await getBlob(container, blob, authentication: authentication)
        case ("HEAD", nil):
            try permit(.getBlobProperties)
            return try await blobProperties(container, blob, authentication: authentication)
        case ("GET", "metadata"), ("HEAD", "metadata"):
            try permit(.getBlobProperties)
            return try await blobMetadata(container, blob)
        case ("GET", "blocklist"):
            try permit(.getBlob)
            return try await blockList(container, blob)
        case ("PUT", "metadata"):
            try permit(.setBlobProperties)
            return try await setBlobMetadata(container, blob)
        case ("PUT", "properties"):
            try permit(.setBlobProperties)
            return try await setBlobProperties(container, blob)
        case ("DELETE", nil):
            try permit(.deleteBlob)
            return try await deleteBlob(container, blob)
        default: throw unsupported()
        }
    }

    // MARK: Containers

    private func listContainers(_ path: ResourcePath) async throws -> ServiceResponse {
        let prefix = query["prefix"] ?? ""
        let limit = try maxResults()
        let marker = query["marker"]
        var names = try await account.containerNames().filter { $0.hasPrefix(prefix) }
        // The marker is the last name of the page before: the listing starts after it, as Azure's
        // and Azurite's do (src/blob/persistence/LokiBlobMetadataStore.ts `listContainers`).
        if let marker { names = names.filter { marker.utf8.lexicographicallyPrecedes($0.utf8) } }
        let next = names.count > limit ? names[limit - 1] : nil
        var containers: [ContainerProperties] = []
        for name in names.prefix(limit) {
            if let properties = try await account.containerProperties(name) { containers.append(properties) }
        }
        let body = BlobListingXML.containers(
            containers,
            nextMarker: next,
            request: BlobListingXML.Request(
                prefix: query["prefix"],
                marker: marker,
                maxResults: query["maxresults"].map { _ in limit }
            ),
            serviceEndpoint: serviceEndpoint(path),
            includeMetadata: includes("metadata"),
            httpDate: HTTPDate.format
        )
        return xmlResponse(body)
    }

    private func createContainer(_ container: String) async throws -> ServiceResponse {
        try ContainerName.check(container)
        let access = try publicAccess()
        let metadata = try BlobMetadataHeaders.read(head.headers)
        guard try await account.createContainerIfNotExists(container, access: access, metadata: metadata) else {
            throw BlobServiceError.containerAlreadyExists
        }
        let properties = try await requireContainer(container)
        var headers = HTTPFields()
        headers[.eTag] = properties.etag
        headers[.lastModified] = HTTPDate.format(properties.lastModified)
        return ServiceResponse(status: .created, headers: headers)
    }

    private func deleteContainer(_ container: String) async throws -> ServiceResponse {
        try await account.deleteContainer(container)
        return ServiceResponse(status: .accepted)
    }

    private func containerProperties(_ container: String) async throws -> ServiceResponse {
        let properties = try await requireContainer(container)
        return ServiceResponse(status: .ok, headers: containerHeaders(properties))
    }

    /// Set Container Metadata, when `If-Modified-Since` (the one condition Azure takes for it) holds:
    /// 412 ConditionNotMet otherwise (Azurite: src/blob/persistence/LokiBlobMetadataStore.ts
    /// `setContainerMetadata`). Checked before the write without a lock: a container's Last-Modified
    /// only moves on, so a condition that held at the check still holds at the write.
    private func setContainerMetadata(_ container: String) async throws -> ServiceResponse {
        if let since = try conditions().ifModifiedSince {
            let current = try await requireContainer(container)
            guard current.lastModified.ticks / EdmDateTime.ticksPerSecond > since.ticks / EdmDateTime.ticksPerSecond
            else {
                throw BlobServiceError.conditionNotMet
            }
        }
        let properties = try await account.setContainerMetadata(
            container,
            metadata: try BlobMetadataHeaders.read(head.headers)
        )
        var headers = HTTPFields()
        headers[.eTag] = properties.etag
        headers[.lastModified] = HTTPDate.format(properties.lastModified)
        return ServiceResponse(status: .ok, headers: headers)
    }

    /// `x-ms-blob-public-access`: `container` or `blob`; absent or empty is private (Azure refuses
    /// the word `private` itself).
    private func publicAccess() throws -> ContainerAccess {
        switch head.header("x-ms-blob-public-access") {
        case nil, "": return .private
        case let value?:
            guard let level = ContainerAccess(rawValue: value), level != .private else {
                throw BlobServiceError.invalidHeaderValue("x-ms-blob-public-access", value)
            }
            return level
        }
    }

    /// Set Container ACL: the public access level (none when the header is absent, as Azure reads
    /// it) and the stored access policies of the body, both replaced (Azurite:
    /// src/blob/handlers/ContainerHandler.ts `setAccessPolicy`).
    private func setContainerACL(_ container: String, body: [UInt8]) async throws -> ServiceResponse {
        let access = try publicAccess()
        let policies = try SignedIdentifiersXML.read(body)
        let properties = try await account.setContainerACL(container, access: access, policies: policies)
        var headers = HTTPFields()
        headers[.eTag] = properties.etag
        headers[.lastModified] = HTTPDate.format(properties.lastModified)
        return ServiceResponse(status: .ok, headers: headers)
    }

    private func containerACL(_ container: String) async throws -> ServiceResponse {
        let properties = try await requireContainer(container)
        let policies = try await account.containerPolicies(container) ?? []
        var response = xmlResponse(SignedIdentifiersXML.write(policies))
        response.headers.append(contentsOf: containerHeaders(properties))
        return response
    }

    private func containerHeaders(_ properties: ContainerProperties) -> HTTPFields {
        var headers = HTTPFields()
        headers[.eTag] = properties.etag
        headers[.lastModified] = HTTPDate.format(properties.lastModified)
        headers[.xMsLeaseStatus] = "unlocked"
        headers[.xMsLeaseState] = "available"
        headers[.xMsHasImmutabilityPolicy] = "false"
        headers[.xMsHasLegalHold] = "false"
        if properties.access != .private { headers[.xMsBlobPublicAccess] = properties.access.rawValue }
        append(BlobMetadataHeaders.fields(properties.metadata), to: &headers)
        return headers
    }

    /// List Blobs, flat or with a `delimiter` (`<BlobPrefix>` entries among the blobs);
    /// `include=uncommittedblobs` lists the blobs that have only staged blocks too.
    private func listBlobs(_ container: String, _ path: ResourcePath) async throws -> ServiceResponse {
        let limit = try maxResults()
        let prefix = query["prefix"] ?? ""
        let marker = query["marker"]
        let uncommitted = includes("uncommittedblobs")
        let entries: [BlobListingEntry]
        let next: String?
        if let delimiter = query["delimiter"], !delimiter.isEmpty {
            (entries, next) = try await account.blobListing(
                container: container,
                prefix: prefix,
                delimiter: delimiter,
                from: marker,
                limit: limit,
                includeUncommitted: uncommitted
            )
        } else {
            let page = try await account.blobPage(
                container: container,
                prefix: prefix,
                from: marker,
                limit: limit,
                includeUncommitted: uncommitted
            )
            (entries, next) = (page.blobs.map { .blob($0) }, page.nextMarker)
        }
        let body = BlobListingXML.blobs(
            entries,
            container: container,
            nextMarker: next,
            request: BlobListingXML.Request(
                prefix: query["prefix"],
                marker: marker,
                maxResults: query["maxresults"].map { _ in limit },
                delimiter: query["delimiter"]
            ),
            serviceEndpoint: serviceEndpoint(path),
            includeMetadata: includes("metadata"),
            httpDate: HTTPDate.format
        )
        return xmlResponse(body)
    }

    // MARK: Blobs

    private func putBlob(_ container: String, _ blob: String, data: [UInt8]) async throws -> ServiceResponse {
        guard let type = head.header("x-ms-blob-type") else {
            throw BlobServiceError.missingRequiredHeader("x-ms-blob-type")
        }
        guard type == "BlockBlob" else {
            throw BlobServiceError.notImplemented("Only block blobs are served (x-ms-blob-type: \(type)).")
        }
        // Azurite checks `x-ms-blob-content-md5` before `Content-MD5` against the body
        // (src/blob/handlers/BlockBlobHandler.ts `upload`, "Verified live").
        try checkContentMD5(
            of: data,
            header: head.header("x-ms-blob-content-md5") != nil ? "x-ms-blob-content-md5" : "Content-MD5"
        )
        let settings = BlobSettings(
            contentType: head.header("x-ms-blob-content-type") ?? head.header("Content-Type")
                ?? "application/octet-stream",
            headers: BlobContentHeaderFields.read(head.header, plain: true),
            metadata: try BlobMetadataHeaders.read(head.headers)
        )
        let stored = try await account.storeBlob(
            container: container,
            name: blob,
            data: data,
            settings: settings,
            conditions: try conditions()
        )
        var headers = HTTPFields()
        headers[.eTag] = stored.etag
        headers[.lastModified] = HTTPDate.format(stored.lastModified)
        headers[.contentMD5] = stored.contentMD5
        headers[.xMsRequestServerEncrypted] = "true"
        return ServiceResponse(status: .created, headers: headers)
    }

    private func putBlock(_ container: String, _ blob: String, data: [UInt8]) async throws -> ServiceResponse {
        guard let id = query["blockid"], let decoded = Base64.decode(id), !decoded.isEmpty, decoded.count <= 64 else {
            throw BlobServiceError.invalidQueryParameterValue("blockid")
        }
        let md5 = try checkContentMD5(of: data)
        try await checkBlockIDLength(decoded.count, container, blob)
        try await account.stageBlock(container: container, name: blob, blockID: id, data: data)
        var headers = HTTPFields()
        headers[.contentMD5] = md5
        headers[.xMsRequestServerEncrypted] = "true"
        return ServiceResponse(status: .created, headers: headers)
    }

    /// A blob's uncommitted blocks have ids of one length ("the same size for each block", Azure's
    /// Put Block): a block of another length is 400 InvalidBlobOrBlock, as Azurite answers it
    /// (src/blob/persistence/LokiBlobMetadataStore.ts `stageBlock`).
    private func checkBlockIDLength(_ length: Int, _ container: String, _ blob: String) async throws {
        let staged: [BlockList.Block]
        do {
            staged = try await account.blockList(container: container, name: blob).uncommitted
        } catch let error as StorageError where error.reason == .notFound {
            return  // neither the blob nor a block yet (a missing container is the stage's to answer)
        }
        if let other = staged.first, Base64.decode(other.id)?.count != length {
            throw BlobServiceError.invalidBlobOrBlock
        }
    }

    /// `Content-MD5` is the block list's own, checked before anything is committed. Azure stores
    /// `x-ms-blob-content-md5` unchecked (each block's MD5 was checked as it was put); the local
    /// account always stores the MD5 of the committed bytes, which is that value when it is right.
    private func putBlockList(_ container: String, _ blob: String, body list: [UInt8]) async throws -> ServiceResponse {
        let listMD5 = try checkContentMD5(of: list)
        let blocks = try BlockListXML.read(list)
        let settings = BlobSettings(
            contentType: head.header("x-ms-blob-content-type") ?? "application/octet-stream",
            headers: BlobContentHeaderFields.read(head.header, plain: false),
            metadata: try BlobMetadataHeaders.read(head.headers),
            contentMD5: try blobContentMD5()
        )
        let stored = try await account.commitBlocks(
            container: container,
            name: blob,
            blocks: blocks,
            settings: settings,
            conditions: try conditions()
        )
        var headers = HTTPFields()
        // The reply's Content-MD5 is the block list's own (Azurite: BlockBlobHandler.ts `commitBlockList`).
        headers[.contentMD5] = listMD5
        headers[.eTag] = stored.etag
        headers[.lastModified] = HTTPDate.format(stored.lastModified)
        headers[.xMsRequestServerEncrypted] = "true"
        return ServiceResponse(status: .created, headers: headers)
    }

    /// Checks the request's `Content-MD5` (or the named header), if it has one, against `body`;
    /// returns the body's MD5 (base64).
    @discardableResult
    private func checkContentMD5(of body: [UInt8], header: String = "Content-MD5") throws -> String {
        let md5 = Base64.encode(Array(Insecure.MD5.hash(data: body)))
        guard let sent = head.header(header) else { return md5 }
        guard let decoded = Base64.decode(sent), decoded.count == 16 else {
            throw BlobServiceError.invalidMD5
        }
        guard sent == md5 else {
            throw BlobServiceError.md5Mismatch
        }
        return md5
    }

    /// Get Block List: `blocklisttype` committed (the default), uncommitted or all, with the blob's
    /// ETag, Last-Modified and length when it exists (Azurite: BlockBlobHandler.ts `getBlockList`).
    private func blockList(_ container: String, _ blob: String) async throws -> ServiceResponse {
        let type = (query["blocklisttype"] ?? "committed").lowercased()
        guard ["committed", "uncommitted", "all"].contains(type) else {
            throw BlobServiceError.invalidQueryParameterValue("blocklisttype")
        }
        let list = try await account.blockList(container: container, name: blob)
        var response = xmlResponse(
            BlockListXML.blocks(
                committed: type == "uncommitted" ? nil : list.committed,
                uncommitted: type == "committed" ? nil : list.uncommitted
            )
        )
        if let properties = list.blob {
            response.headers[.eTag] = properties.etag
            response.headers[.lastModified] = HTTPDate.format(properties.lastModified)
            response.headers[.xMsBlobContentLength] = String(properties.size)
        }
        return response
    }

    /// `x-ms-blob-content-md5`, the MD5 a write keeps for the blob, checked for form only (400
    /// InvalidMd5 when it is not 16 bytes in base64); nil when not sent.
    private func blobContentMD5() throws -> String? {
        guard let sent = head.header("x-ms-blob-content-md5") else { return nil }
        guard let decoded = Base64.decode(sent), decoded.count == 16 else { throw BlobServiceError.invalidMD5 }
        return sent
    }

    private func setBlobMetadata(_ container: String, _ blob: String) async throws -> ServiceResponse {
        let metadata = try BlobMetadataHeaders.read(head.headers)
        let stored = try await account.setBlobMetadata(
            container: container,
            name: blob,
            metadata: metadata,
            conditions: try conditions()
        )
        return writeResponse(stored, status: .ok)
    }

    /// Set Blob Properties sets the content type and headers together, clearing what it is not
    /// given (Azure's Remarks, which Azurite follows: src/blob/persistence/LokiBlobMetadataStore.ts
    /// `setBlobHTTPHeaders`).
    private func setBlobProperties(_ container: String, _ blob: String) async throws -> ServiceResponse {
        let settings = BlobSettings(
            contentType: head.header("x-ms-blob-content-type") ?? "",
            headers: BlobContentHeaderFields.read(head.header, plain: false),
            contentMD5: try blobContentMD5()
        )
        let stored = try await account.setBlobProperties(
            container: container,
            name: blob,
            settings: settings,
            conditions: try conditions()
        )
        return writeResponse(stored, status: .ok)
    }

    /// The reply to a write that changed a blob's properties: its new ETag and Last-Modified.
    private func writeResponse(_ stored: BlobProperties, status: HTTPResponse.Status) -> ServiceResponse {
        var headers = HTTPFields()
        headers[.eTag] = stored.etag
        headers[.lastModified] = HTTPDate.format(stored.lastModified)
        headers[.xMsRequestServerEncrypted] = "true"
        return ServiceResponse(status: status, headers: headers)
    }

    /// Get Blob Metadata: the ETag, Last-Modified and `x-ms-meta-*`, no content headers.
    private func blobMetadata(_ container: String, _ blob: String) async throws -> ServiceResponse {
        let properties = try await existingBlobProperties(container, blob)
        var headers = HTTPFields()
        headers[.eTag] = properties.etag
        headers[.lastModified] = HTTPDate.format(properties.lastModified)
        append(BlobMetadataHeaders.fields(properties.metadata), to: &headers)
        return ServiceResponse(status: .ok, headers: headers)
    }

    /// Get Blob Properties (HEAD): the headers of a GET, read without the content, so that a large
    /// blob's HEAD costs what a small one's does.
    private func blobProperties(
        _ container: String,
        _ blob: String,
        authentication: RequestAuthentication
    ) async throws -> ServiceResponse {
        let properties = try await existingBlobProperties(container, blob)
        var headers = blobHeaders(properties, authentication: authentication)
        headers.append(HTTPField(name: .contentLength, value: String(properties.size)))
        if !properties.contentMD5.isEmpty { headers.append(HTTPField(name: .contentMD5, value: properties.contentMD5)) }
        return ServiceResponse(status: .ok, headers: headers)
    }

    /// A blob's properties when the request's conditions allow, read without its content; 404 when it
    /// is not there.
    private func existingBlobProperties(_ container: String, _ blob: String) async throws -> BlobProperties {
        guard
            let properties = try await account.blobProperties(
                container: container,
                name: blob,
                conditions: try conditions()
            )
        else {
            throw try await blobMissing(container)
        }
        return properties
    }

    /// 404 for a blob that is not there: ContainerNotFound when its container is missing too.
    private func blobMissing(_ container: String) async throws -> BlobServiceError {
        try await account.containerProperties(container) == nil ? .containerNotFound : .blobNotFound
    }

    /// The headers a GET and a HEAD of a blob share: its properties, content headers and metadata,
    /// with a SAS's response-header overrides (`rsct`, `rscc`, `rscd`, `rsce`, `rscl`) in place of
    /// the stored values (Azure's "Create a service SAS", "Specify query parameters to override
    /// response headers").
    private func blobHeaders(_ properties: BlobProperties, authentication: RequestAuthentication) -> HTTPFields {
        let lastModified = HTTPDate.format(properties.lastModified)
        var contentType = properties.contentType
        var content = properties.headers
        if case .sharedAccessSignature(let grant) = authentication {
            let signature = grant.signature
            contentType = signature.contentType ?? contentType
            content.cacheControl = signature.cacheControl ?? content.cacheControl
            content.contentDisposition = signature.contentDisposition ?? content.contentDisposition
            content.contentEncoding = signature.contentEncoding ?? content.contentEncoding
            content.contentLanguage = signature.contentLanguage ?? content.contentLanguage
        }
        // Appended, not set: every name is new here, and setting looks each one up first.
        var headers = HTTPFields([
            HTTPField(name: .eTag, value: properties.etag),
            HTTPField(name: .lastModified, value: lastModified), HTTPField(name: .acceptRanges, value: "bytes"),
            HTTPField(name: .xMsBlobType, value: "BlockBlob"), HTTPField(name: .xMsCreationTime, value: lastModified),
            HTTPField(name: .xMsLeaseStatus, value: "unlocked"), HTTPField(name: .xMsLeaseState, value: "available"),
            HTTPField(name: .xMsServerEncrypted, value: "true"), HTTPField(name: .xMsAccessTier, value: "Hot"),
            HTTPField(name: .xMsAccessTierInferred, value: "true"),
        ])
        // A type or MD5 that Set Blob Properties cleared is left out, as Azurite leaves it.
        if !contentType.isEmpty { headers.append(HTTPField(name: .contentType, value: contentType)) }
        append(BlobContentHeaderFields.replyFields(content), to: &headers)
        append(BlobMetadataHeaders.fields(properties.metadata), to: &headers)
        return headers
    }

    /// Appends headers whose names were checked when they were set (metadata names are identifiers).
    private func append(_ fields: [(name: String, value: String)], to headers: inout HTTPFields) {
        for field in fields {
            if let name = HTTPField.Name(field.name) { headers.append(HTTPField(name: name, value: field.value)) }
        }
    }

    private func getBlob(
        _ container: String,
        _ blob: String,
        authentication: RequestAuthentication
    ) async throws -> ServiceResponse {
        let range = ByteRangeHeader.parse(head.header("x-ms-range") ?? head.header("Range"))
        // `x-ms-range-get-content-md5: true` asks for the range's own MD5, which Azure gives for a
        // range of at most 4 MiB and refuses (400) without a range or for a larger one (Azure's Get
        // Blob; Azurite: src/blob/handlers/BlobHandler.ts `downloadBlockBlobOrAppendBlob`).
        let rangeMD5 = head.header("x-ms-range-get-content-md5")?.lowercased() == "true"
        if rangeMD5, range == nil {
            throw BlobServiceError.invalidHeaderValue("x-ms-range-get-content-md5", "true (without a range)")
        }
        let result: Blob?
        do {
            result = try await account.blob(
                container: container,
                name: blob,
                range: range,
                conditions: try conditions()
            )
        } catch let error as StorageError where error.reason == .invalidRange {
            // Azure says how long the blob is, so a client can ask again.
            let size =
                try await account.blob(container: container, name: blob, range: nil, conditions: .none)?.properties.size
                ?? 0
            throw BlobServiceError.rangeNotSatisfiable(error, size: size)
        }
        guard let result else { throw try await blobMissing(container) }
        let properties = result.properties
        var headers = blobHeaders(properties, authentication: authentication)
        headers.append(HTTPField(name: .contentLength, value: String(result.data.count)))
        let status: HTTPResponse.Status
        if let range {
            // The bytes really sent: fewer than the range asks when the stored content is shorter than
            // its recorded length (changed behind the store's back), and then the blob ends with them.
            let sent = result.range.lowerBound..<result.range.lowerBound + result.data.count
            if sent.isEmpty, !result.range.isEmpty {
                throw try await shortBlobRange(range, container, blob)
            }
            let total = sent.count < result.range.count ? sent.upperBound : properties.size
            status = .partialContent
            headers.append(
                HTTPField(name: .contentRange, value: "bytes \(sent.lowerBound)-\(sent.upperBound - 1)/\(total)")
            )
            headers.append(HTTPField(name: .xMsBlobContentMD5, value: properties.contentMD5))
            if rangeMD5 {
                guard result.data.count <= Self.maxRangeMD5Size else {
                    throw BlobServiceError.invalidHeaderValue(
                        "x-ms-range-get-content-md5",
                        "true (for a range over 4 MiB)"
                    )
                }
                headers.append(HTTPField(name: .contentMD5, value: BlobProperties.contentMD5(of: result.data)))
            }
        } else {
            status = .ok
            if !properties.contentMD5.isEmpty {
                headers.append(HTTPField(name: .contentMD5, value: properties.contentMD5))
            }
        }
        return ServiceResponse(status: status, headers: headers, body: ByteBuffer(bytes: result.data))
    }

    /// 416 for a range that starts past the bytes a blob really holds, though within its recorded
    /// length: the size in `Content-Range` is what a whole read gives.
    private func shortBlobRange(
        _ range: ByteRange,
        _ container: String,
        _ blob: String
    ) async throws -> BlobServiceError {
        let held =
            try await account.blob(container: container, name: blob, range: nil, conditions: .none)?.data.count ?? 0
        do {
            _ = try range.resolved(size: held)
            return BlobServiceError.internalError("The blob's content changed while it was read.")
        } catch {
            return BlobServiceError.rangeNotSatisfiable(error, size: held)
        }
    }

    private func deleteBlob(_ container: String, _ blob: String) async throws -> ServiceResponse {
        try await account.deleteBlob(container: container, name: blob, conditions: try conditions())
        var headers = HTTPFields()
        headers[.xMsDeleteTypePermanent] = "true"
        return ServiceResponse(status: .accepted, headers: headers)
    }

    // MARK: Helpers

    /// Anonymous requests read what the container's public access level allows: `container`, its
    /// blobs, properties and listing; `blob`, its blobs only. Everything else answers as if it did
    /// not exist (404 ResourceNotFound), as Azure does, so that a private name is not revealed.
    func checkAnonymous(_ path: ResourcePath, method: String, restype: String?, comp: String?) async throws {
        let reading = method == "GET" || method == "HEAD"
        if reading, let container = path.first, let access = try await account.containerProperties(container)?.access {
            if path.rest != nil, comp == nil, access != .private { return }
            if path.rest == nil, restype == "container", comp == nil || comp == "list", access == .container { return }
        }
        throw BlobServiceError.resourceNotFound
    }

    /// Where a listing says the service answers: the request's host, in the request's URL style.
    private func serviceEndpoint(_ path: ResourcePath) -> String {
        path.baseURL(host: head.header("Host") ?? server.configuration.host) + "/"
    }

    private func requireContainer(_ container: String) async throws -> ContainerProperties {
        guard let properties = try await account.containerProperties(container) else {
            throw BlobServiceError.containerNotFound
        }
        return properties
    }

    /// Whether the `include` parameter lists `item` (`include=metadata,snapshots`).
    private func includes(_ item: String) -> Bool {
        (query["include"] ?? "").split(separator: ",").contains { $0 == item }
    }

    private func maxResults() throws -> Int {
        guard let text = query["maxresults"] else { return Self.maxResultsLimit }
        guard let value = Int(text), value > 0 else {
            throw BlobServiceError.outOfRangeQueryParameterValue("maxresults=\(text)")
        }
        return min(value, Self.maxResultsLimit)
    }

    private func conditions() throws -> BlobConditions {
        func date(_ name: String) throws -> EdmDateTime? {
            guard let text = head.header(name) else { return nil }
            guard let date = HTTPDate.parse(text) else {
                throw BlobServiceError.invalidHeaderValue(name, text)
            }
            return date
        }
        return BlobConditions(
            ifMatch: head.header("If-Match"),
            ifNoneMatch: head.header("If-None-Match"),
            ifModifiedSince: try date("If-Modified-Since"),
            ifUnmodifiedSince: try date("If-Unmodified-Since")
        )
    }

    /// Azure's answer to a request this server does not serve: an HTTP method no Blob operation uses
    /// is 405 UnsupportedHttpVerb; a `comp` Azure does not know is 400 InvalidQueryParameterValue;
    /// an operation Azure has and this server leaves out (leases, snapshots, page blobs…) is 501.
    private func unsupported() -> BlobServiceError {
        if !["GET", "HEAD", "PUT", "DELETE", "POST", "OPTIONS"].contains(head.method) { return .unsupportedHTTPVerb }
        if let comp = query["comp"], !Self.azureComps.contains(comp) { return .unknownComp(comp) }
        return .notImplemented(
            "The requested operation (\(head.method) with this query) is not supported by this server."
        )
    }

    /// The `comp` values of the Blob service's REST API (version 2021-12-02).
    static let azureComps: Set<String> = [
        "acl", "appendblock", "batch", "block", "blocklist", "blobs", "copy", "expiry", "immutabilityPolicies",
        "incrementalcopy", "lease",
        "legalhold", "list", "metadata", "page", "pagelist", "properties", "query", "rename", "seal", "snapshot",
        "stats", "tags", "tier",
        "undelete", "userdelegationkey",
    ]

    private func xmlResponse(_ body: [UInt8]) -> ServiceResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/xml"
        return ServiceResponse(status: .ok, headers: headers, body: ByteBuffer(bytes: body))
    }
}
