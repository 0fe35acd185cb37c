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
        let restype = query["restype"], comp = query["comp"]
        let authentication = try await authentication(of: request, path: path)
        /// A SAS must allow the operation; the account key and public access allow all that got here.
        func permit(_ operation: SASOperation) throws {
            if case .sharedAccessSignature(let grant) = authentication { try grant.authorize(operation) }
        }
        guard let container = path.first else {
            switch (method, comp) {
            case ("GET", "list"), ("HEAD", "list"):
                try permit(.listContainers)
                return try await listContainers()
            default: throw unsupported()
            }
        }
        guard let blob = path.rest else {
            guard restype == "container" else { throw unsupported() }
            switch (method, comp) {
            case ("PUT", nil):
                try permit(.createContainer)
                return try await createContainer(container)
            case ("DELETE", nil):
                try permit(.deleteContainer)
                return try await deleteContainer(container)
            case ("GET", nil), ("HEAD", nil):
                try permit(.getContainerProperties)
                return try await containerProperties(container)
            case ("GET", "acl"), ("HEAD", "acl"):
                try permit(.getContainerProperties)
                return try await containerACL(container)
            case ("GET", "list"):
                try permit(.listBlobs)
                return try await listBlobs(container)
            default: throw unsupported()
            }
        }
        switch (method, comp) {
        case ("PUT", nil):
            if case .sharedAccessSignature = authentication {
                let exists = try await account.blobPage(container: container, prefix: blob, from: blob, limit: 1).blobs.first?.name == blob
                try permit(exists ? .overwriteBlob : .createBlob)
            }
            return try await putBlob(container, blob, body: try request.collectBody(upTo: Self.maxBodySize))
        case ("PUT", "block"):
            try permit(.putBlock)
            return try await putBlock(container, blob, body: try request.collectBody(upTo: Self.maxBodySize))
        case ("PUT", "blocklist"):
            try permit(.putBlockList)
            return try await putBlockList(container, blob, body: try request.collectBody(upTo: Self.maxBlockListSize))
        case ("GET", nil):
            try permit(.getBlob)
            return try await getBlob(container, blob)
        case ("HEAD", nil):
            try permit(.getBlobProperties)
            return try await getBlob(container, blob)
        case ("DELETE", nil):
            try permit(.deleteBlob)
            return try await deleteBlob(container, blob)
        default: throw unsupported()
        }
    }

    // MARK: Containers

    private func listContainers() async throws -> ServiceResponse {
        let prefix = query["prefix"] ?? ""
        let limit = try maxResults()
        let marker = query["marker"]
        var names = try await account.containerNames().filter { $0.hasPrefix(prefix) }
        if let marker { names = names.filter { !$0.utf8.lexicographicallyPrecedes(marker.utf8) } }
        let next = names.count > limit ? names[limit] : nil
        var containers: [ContainerProperties] = []
        for name in names.prefix(limit) { if let properties = try await account.containerProperties(name) { containers.append(properties) } }
        let body = BlobListingXML.containers(
            containers, nextMarker: next,
            request: BlobListingXML.Request(prefix: query["prefix"], marker: marker, maxResults: query["maxresults"].map { _ in limit }),
            serviceEndpoint: serviceEndpoint, httpDate: HTTPDate.format)
        return xmlResponse(body)
    }

    private func createContainer(_ container: String) async throws -> ServiceResponse {
        try ContainerName.check(container)
        let access: ContainerAccess
        switch head.header("x-ms-blob-public-access") {
        case nil, "": access = .private
        case let value?:
            guard let level = ContainerAccess(rawValue: value), level != .private else {
                throw BlobServiceError.invalidHeaderValue("x-ms-blob-public-access", value)
            }
            access = level
        }
        guard try await account.createContainerIfNotExists(container, access: access) else {
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

    private func containerACL(_ container: String) async throws -> ServiceResponse {
        let properties = try await requireContainer(container)
        var xml = BlobXML()
        xml.element("SignedIdentifiers", "")
        var response = xmlResponse(xml.bytes)
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
        return headers
    }

    private func listBlobs(_ container: String) async throws -> ServiceResponse {
        let limit = try maxResults()
        let page = try await account.blobPage(container: container, prefix: query["prefix"] ?? "", from: query["marker"], limit: limit)
        let body = BlobListingXML.blobs(
            page.blobs, container: container, nextMarker: page.nextMarker,
            request: BlobListingXML.Request(
                prefix: query["prefix"], marker: query["marker"], maxResults: query["maxresults"].map { _ in limit }),
            serviceEndpoint: serviceEndpoint, httpDate: HTTPDate.format)
        return xmlResponse(body)
    }

    // MARK: Blobs

    private func putBlob(_ container: String, _ blob: String, body: ByteBuffer) async throws -> ServiceResponse {
        guard let type = head.header("x-ms-blob-type") else {
            throw BlobServiceError.missingRequiredHeader("x-ms-blob-type")
        }
        guard type == "BlockBlob" else {
            throw BlobServiceError.notImplemented("Only block blobs are served (x-ms-blob-type: \(type)).")
        }
        let data = Array(buffer: body)
        try checkContentMD5(of: data)
        let contentType = head.header("x-ms-blob-content-type") ?? head.header("Content-Type") ?? "application/octet-stream"
        _ = try await account.putBlob(container: container, name: blob, contentType: contentType, data: data, conditions: try conditions())
        // The stored properties, read without the content.
        guard let stored = try await account.blobPage(container: container, prefix: blob, from: blob, limit: 1).blobs.first, stored.name == blob else {
            throw BlobServiceError.internalError("The blob vanished while it was written.")
        }
        var headers = HTTPFields()
        headers[.eTag] = stored.etag
        headers[.lastModified] = HTTPDate.format(stored.lastModified)
        headers[.contentMD5] = stored.contentMD5
        headers[.xMsRequestServerEncrypted] = "true"
        return ServiceResponse(status: .created, headers: headers)
    }

    private func putBlock(_ container: String, _ blob: String, body: ByteBuffer) async throws -> ServiceResponse {
        guard let id = query["blockid"], let decoded = Base64.decode(id), !decoded.isEmpty, decoded.count <= 64 else {
            throw BlobServiceError.invalidQueryParameterValue("blockid")
        }
        let data = Array(buffer: body)
        let md5 = try checkContentMD5(of: data)
        try await account.stageBlock(container: container, name: blob, blockID: id, data: data)
        var headers = HTTPFields()
        headers[.contentMD5] = md5
        headers[.xMsRequestServerEncrypted] = "true"
        return ServiceResponse(status: .created, headers: headers)
    }

    /// `Content-MD5` is the block list's own, checked before anything is committed. Azure stores
    /// `x-ms-blob-content-md5` unchecked (each block's MD5 was checked as it was put); the local
    /// account always stores the MD5 of the committed bytes, which is that value when it is right.
    private func putBlockList(_ container: String, _ blob: String, body: ByteBuffer) async throws -> ServiceResponse {
        let list = Array(buffer: body)
        try checkContentMD5(of: list)
        let blocks = try BlockListXML.read(list)
        let contentType = head.header("x-ms-blob-content-type") ?? "application/octet-stream"
        let stored = try await account.commitBlocks(container: container, name: blob, blocks: blocks, contentType: contentType, conditions: try conditions())
        var headers = HTTPFields()
        headers[.eTag] = stored.etag
        headers[.lastModified] = HTTPDate.format(stored.lastModified)
        headers[.xMsRequestServerEncrypted] = "true"
        return ServiceResponse(status: .created, headers: headers)
    }

    /// Checks the request's `Content-MD5`, if it has one, against `body`; returns the body's MD5 (base64).
    @discardableResult
    private func checkContentMD5(of body: [UInt8]) throws -> String {
        let md5 = Base64.encode(Array(Insecure.MD5.hash(data: body)))
        guard let sent = head.header("Content-MD5") else { return md5 }
        guard let decoded = Base64.decode(sent), decoded.count == 16 else {
            throw BlobServiceError.invalidMD5
        }
        guard sent == md5 else {
            throw BlobServiceError.md5Mismatch
        }
        return md5
    }

    private func getBlob(_ container: String, _ blob: String) async throws -> ServiceResponse {
        let range = ByteRangeHeader.parse(head.header("x-ms-range") ?? head.header("Range"))
        let result: Blob?
        do {
            result = try await account.blob(container: container, name: blob, range: range, conditions: try conditions())
        } catch let error as StorageError where error.reason == .invalidRange {
            // Azure says how long the blob is, so a client can ask again.
            let size = try await account.blob(container: container, name: blob, range: nil, conditions: .none)?.properties.size ?? 0
            throw BlobServiceError.rangeNotSatisfiable(error, size: size)
        }
        guard let result else {
            if try await account.containerProperties(container) == nil { throw BlobServiceError.containerNotFound }
            throw BlobServiceError.blobNotFound
        }
        let properties = result.properties
        let lastModified = HTTPDate.format(properties.lastModified)
        // Appended, not set: every name is new here, and setting looks each one up first.
        var headers = HTTPFields([
            HTTPField(name: .contentType, value: properties.contentType), HTTPField(name: .eTag, value: properties.etag),
            HTTPField(name: .lastModified, value: lastModified), HTTPField(name: .acceptRanges, value: "bytes"),
            HTTPField(name: .xMsBlobType, value: "BlockBlob"), HTTPField(name: .xMsCreationTime, value: lastModified),
            HTTPField(name: .xMsLeaseStatus, value: "unlocked"), HTTPField(name: .xMsLeaseState, value: "available"),
            HTTPField(name: .xMsServerEncrypted, value: "true"), HTTPField(name: .xMsAccessTier, value: "Hot"),
            HTTPField(name: .xMsAccessTierInferred, value: "true"), HTTPField(name: .contentLength, value: String(result.data.count)),
        ])
        let status: HTTPResponse.Status
        if range != nil {
            status = .partialContent
            headers.append(HTTPField(name: .contentRange, value: "bytes \(result.range.lowerBound)-\(result.range.upperBound - 1)/\(properties.size)"))
            headers.append(HTTPField(name: .xMsBlobContentMD5, value: properties.contentMD5))
        } else {
            status = .ok
            headers.append(HTTPField(name: .contentMD5, value: properties.contentMD5))
        }
        return ServiceResponse(status: status, headers: headers, body: ByteBuffer(bytes: result.data))
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

    private var serviceEndpoint: String {
        "http://\(head.header("Host") ?? server.configuration.host)/\(server.configuration.accountName)/"
    }

    private func requireContainer(_ container: String) async throws -> ContainerProperties {
        guard let properties = try await account.containerProperties(container) else {
            throw BlobServiceError.containerNotFound
        }
        return properties
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
            ifMatch: head.header("If-Match"), ifNoneMatch: head.header("If-None-Match"), ifModifiedSince: try date("If-Modified-Since"),
            ifUnmodifiedSince: try date("If-Unmodified-Since"))
    }

    /// Azure's answer to a request this server does not serve: an HTTP method no Blob operation uses
    /// is 405 UnsupportedHttpVerb; a `comp` Azure does not know is 400 InvalidQueryParameterValue;
    /// an operation Azure has and this server leaves out (leases, snapshots, page blobs…) is 501.
    private func unsupported() -> BlobServiceError {
        if !["GET", "HEAD", "PUT", "DELETE", "POST", "OPTIONS"].contains(head.method) { return .unsupportedHTTPVerb }
        if let comp = query["comp"], !Self.azureComps.contains(comp) { return .unknownComp(comp) }
        return .notImplemented("The requested operation (\(head.method) with this query) is not supported by this server.")
    }

    /// The `comp` values of the Blob service's REST API (version 2021-12-02).
    static let azureComps: Set<String> = [
        "acl", "appendblock", "batch", "block", "blocklist", "blobs", "copy", "expiry", "immutabilityPolicies", "incrementalcopy", "lease",
        "legalhold", "list", "metadata", "page", "pagelist", "properties", "query", "rename", "seal", "snapshot", "stats", "tags", "tier",
        "undelete", "userdelegationkey",
    ]

    private func xmlResponse(_ body: [UInt8]) -> ServiceResponse {
        var headers = HTTPFields()
        headers[.contentType] = "application/xml"
        return ServiceResponse(status: .ok, headers: headers, body: ByteBuffer(bytes: body))
    }
}

