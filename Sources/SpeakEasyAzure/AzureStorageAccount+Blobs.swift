import SpeakEasyCore
import SpeakEasyModel
import SpeakEasyProtocol
package import SpeakEasyStorage
import Synchronization

/// Containers and block blobs: Put Blob, or Put Block and Put Block List above the single-put size,
/// with Content-MD5; an upload whose content and type are there already is skipped after one HEAD.
extension AzureStorageAccount {
    @discardableResult
    package func createContainerIfNotExists(
        _ container: String,
        access: ContainerAccess,
        metadata: [String: String]
    ) async throws -> Bool {
        var headers = BlobMetadataHeaders.fields(metadata)
        if access != .private { headers.append(("x-ms-blob-public-access", access.rawValue)) }
        let response = try await http.send(
            StorageRequest(.blob, "PUT", "/" + container, query: [("restype", "container")], headers: headers)
        )
        if (200..<300).contains(response.status) {
            known.withLock { $0.newContainers[container] = [:] }
            return true
        }
        let failure = error(response, .blob)
        if failure.code == "ContainerAlreadyExists" { return false }
        if failure.code == "ContainerBeingDeleted" {
            throw StorageError(
                .busy,
                account: accountName,
                "container '\(container)' is being deleted: Azure needs a minute or so before the name is free",
                code: failure.code
            )
        }
        throw failure
    }

    package func containerProperties(_ container: String) async throws -> ContainerProperties? {
        let response = try await http.send(
            StorageRequest(.blob, "HEAD", "/" + container, query: [("restype", "container")])
        )
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw error(response, .blob) }
        let access = response.header("x-ms-blob-public-access").flatMap(ContainerAccess.init(rawValue:)) ?? .private
        return ContainerProperties(
            name: container,
            access: access,
            etag: response.header("ETag") ?? "",
            lastModified: try lastModified(response),
            metadata: metadata(response)
        )
    }

    package func setContainerMetadata(
        _ container: String,
        metadata: [String: String]
    ) async throws -> ContainerProperties {
        _ = try await send(
            StorageRequest(
                .blob,
                "PUT",
                "/" + container,
                query: [("restype", "container"), ("comp", "metadata")],
                headers: BlobMetadataHeaders.fields(metadata)
            )
        )
        return try await storedProperties(container, after: "its metadata was set")
    }

    package func setContainerACL(
        _ container: String,
        access: ContainerAccess,
        policies: [StoredAccessPolicy]
    ) async throws -> ContainerProperties {
        var headers: [(name: String, value: String)] = []
        if access != .private { headers.append(("x-ms-blob-public-access", access.rawValue)) }
        _ = try await send(
            StorageRequest(
                .blob,
                "PUT",
                "/" + container,
                query: [("restype", "container"), ("comp", "acl")],
                headers: headers,
                body: SignedIdentifiersXML.write(policies)
            )
        )
        return try await storedProperties(container, after: "its ACL was set")
    }

    package func containerPolicies(_ container: String) async throws -> [StoredAccessPolicy]? {
        let response = try await http.send(
            StorageRequest(.blob, "GET", "/" + container, query: [("restype", "container"), ("comp", "acl")])
        )
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw error(response, .blob) }
        do {
            return try SignedIdentifiersXML.read(response.body)
        } catch {
            throw unreadable("container ACL", error.message)
        }
    }

    package func containerNames() async throws -> [String] {
        var names: [String] = []
        var marker: String?
        repeat {
            var query = [(name: "comp", value: "list")]
            if let marker { query.append(("marker", marker)) }
            let response = try await send(StorageRequest(.blob, "GET", "/", query: query))
            let page = try BlobListingXML.readContainers(response.body, account: accountName)
            names += page.names
            marker = page.nextMarker
        } while marker != nil
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    package func deleteContainer(_ container: String) async throws {
        forgetBlobs(container)
        _ = try await send(StorageRequest(.blob, "DELETE", "/" + container, query: [("restype", "container")]))
    }

    package func putBlob(
        container: String,
        name: String,
        contentType: String,
        data: [UInt8],
        conditions: BlobConditions
    ) async throws -> Bool {
        let md5 = BlobProperties.contentMD5(of: data)
        let content = md5 + "\n" + contentType
        // In a container this object made, only what it put there is there: no look needed.
        if conditions == .none, let written = known.withLock({ $0.newContainers[container] }) {
            if written[name] == content { return false }
        } else {
            let current = try await blobHead(container: container, name: name)
            try conditions.check(current, reading: false, account: accountName, blob: name)
            if let current, current.contentMD5 == md5, current.contentType == contentType { return false }
        }
        try await upload(
            container: container,
            name: name,
            data: data,
            settings: BlobSettings(contentType: contentType, contentMD5: md5),
            conditions: conditions
        )
        known.withLock { $0.newContainers[container]?[name] = content }
        return true
    }

    package func storeBlob(
        container: String,
        name: String,
        data: [UInt8],
        settings: BlobSettings,
        conditions: BlobConditions
    ) async throws
        -> BlobProperties
    {
        forgetBlobs(container)
        if let properties = try await upload(
            container: container,
            name: name,
            data: data,
            settings: settings,
            conditions: conditions
        ) {
            return properties
        }
        return try await storedProperties(container: container, name: name, after: "written")
    }

    /// Put Blob, or Put Block and Put Block List above the single-put size, with every setting;
    /// the stored properties when the way it went up read them (a block list), else nil.
    @discardableResult
    private func upload(
        container: String,
        name: String,
        data: [UInt8],
        settings: BlobSettings,
        conditions: BlobConditions
    ) async throws -> BlobProperties? {
        if data.count <= singlePutLimit {
            var headers =
                [("x-ms-blob-type", "BlockBlob"), ("Content-MD5", BlobProperties.contentMD5(of: data))]
                + Self.headers(settings)
            headers += Self.headers(conditions)
            _ = try await send(StorageRequest(.blob, "PUT", blobPath(container, name), headers: headers, body: data))
            return nil
        }
        // Block ids of one length, as Azure requires of a blob's blocks.
        let starts = Array(stride(from: 0, to: data.count, by: blockSize))
        let ids = starts.indices.map { Base64.encode(Array("block-\(String(1_000_000 + $0).dropFirst())".utf8)) }
        try await forEachConcurrently(Array(zip(ids, starts)), limit: parallel) { id, start in
            try await self.stage(
                container: container,
                name: name,
                blockID: id,
                data: Array(data[start..<min(start + self.blockSize, data.count)])
            )
        }
        var settings = settings
        settings.contentMD5 = settings.contentMD5 ?? BlobProperties.contentMD5(of: data)
        return try await commit(
            container: container,
            name: name,
            blocks: ids.map { BlockReference(id: $0, source: .uncommitted) },
            settings: settings,
            conditions: conditions
        )
    }

    package func blobProperties(
        container: String,
        name: String,
        conditions: BlobConditions
    ) async throws -> BlobProperties? {
        let response = try await http.send(
            StorageRequest(.blob, "HEAD", blobPath(container, name), headers: Self.headers(conditions))
        )
        if response.status == 404 { return nil }
        if response.status == 304 {
            throw StorageError(.notModified, account: accountName, "blob '\(name)' has not changed")
        }
        guard response.status == 200 else { throw error(response, .blob) }
        return try blobProperties(name: name, response)
    }

    package func setBlobMetadata(
        container: String,
        name: String,
        metadata: [String: String],
        conditions: BlobConditions
    ) async throws -> BlobProperties {
        try await setAndRead(
            container: container,
            name: name,
            comp: "metadata",
            headers: BlobMetadataHeaders.fields(metadata) + Self.headers(conditions)
        )
    }

    package func setBlobProperties(
        container: String,
        name: String,
        settings: BlobSettings,
        conditions: BlobConditions
    ) async throws -> BlobProperties {
        try await setAndRead(
            container: container,
            name: name,
            comp: "properties",
            headers: Self.headers(settings, metadata: false) + Self.headers(conditions)
        )
    }

    /// Set Blob Metadata or Properties, then the blob's properties as stored (one HEAD).
    private func setAndRead(
        container: String,
        name: String,
        comp: String,
        headers: [(name: String, value: String)]
    ) async throws -> BlobProperties {
        forgetBlobs(container)
        _ = try await send(
            StorageRequest(.blob, "PUT", blobPath(container, name), query: [("comp", comp)], headers: headers)
        )
        return try await storedProperties(container: container, name: name, after: "changed")
    }

    package func blobPage(
        container: String,
        prefix: String,
        from marker: String?,
        limit: Int,
        includeUncommitted: Bool
    ) async throws -> BlobPage {
        var query = [
            (name: "restype", value: "container"), (name: "comp", value: "list"),
            (name: "include", value: includeUncommitted ? "metadata,uncommittedblobs" : "metadata"),
            (name: "maxresults", value: String(min(max(limit, 1), 5000))),
        ]
        if !prefix.isEmpty { query.append(("prefix", prefix)) }
        if let marker { query.append(("marker", marker)) }
        let response = try await send(StorageRequest(.blob, "GET", "/" + container, query: query))
        return try BlobListingXML.readBlobs(response.body, account: accountName)
    }

    package func blob(
        container: String,
        name: String,
        range: ByteRange?,
        conditions: BlobConditions
    ) async throws -> Blob? {
        var headers = Self.headers(conditions)
        if let range { headers.append(("x-ms-range", "bytes=\(range.first)-\(range.last.map(String.init) ?? "")")) }
        let response = try await http.send(StorageRequest(.blob, "GET", blobPath(container, name), headers: headers))
        if response.status == 404 { return nil }
        if response.status == 304 {
            throw StorageError(.notModified, account: accountName, "blob '\(name)' has not changed")
        }
        guard response.status == 200 || response.status == 206 else { throw error(response, .blob) }
        var properties = try blobProperties(name: name, response)
        var bytes = 0..<response.body.count
        if response.status == 206 {
            // `Content-Range: bytes <first>-<last>/<size>`; the whole blob's MD5 comes in its own header.
            guard let text = response.header("Content-Range"), let slash = text.lastIndex(of: "/"),
                let size = Int(text[text.index(after: slash)...]),
                let first = Int(text.dropFirst("bytes ".count).prefix { $0 != "-" })
            else { throw unreadable("ranged reply", "its Content-Range is missing or malformed") }
            properties.size = size
            properties.contentMD5 = response.header("x-ms-blob-content-md5") ?? ""
            bytes = first..<first + response.body.count
        }
        return Blob(properties: properties, data: response.body, range: bytes)
    }

    package func stageBlock(container: String, name: String, blockID: String, data: [UInt8]) async throws {
        forgetBlobs(container)
        try await stage(container: container, name: name, blockID: blockID, data: data)
    }

    private func stage(container: String, name: String, blockID: String, data: [UInt8]) async throws {
        _ = try await send(
            StorageRequest(
                .blob,
                "PUT",
                blobPath(container, name),
                query: [("comp", "block"), ("blockid", blockID)],
                headers: [("Content-MD5", BlobProperties.contentMD5(of: data))],
                body: data
            )
        )
    }

    @discardableResult
    package func commitBlocks(
        container: String,
        name: String,
        blocks: [BlockReference],
        settings: BlobSettings,
        conditions: BlobConditions
    ) async throws
        -> BlobProperties
    {
        forgetBlobs(container)
        return try await commit(
            container: container,
            name: name,
            blocks: blocks,
            settings: settings,
            conditions: conditions
        )
    }

    /// Put Block List, then the blob's properties as stored (one HEAD: the reply has no size or MD5).
    @discardableResult
    private func commit(
        container: String,
        name: String,
        blocks: [BlockReference],
        settings: BlobSettings,
        conditions: BlobConditions
    ) async throws
        -> BlobProperties
    {
        let headers = Self.headers(settings) + Self.headers(conditions)
        _ = try await send(
            StorageRequest(
                .blob,
                "PUT",
                blobPath(container, name),
                query: [("comp", "blocklist")],
                headers: headers,
                body: BlockListXML.write(blocks)
            )
        )
        return try await storedProperties(container: container, name: name, after: "committed")
    }

    package func blockList(container: String, name: String) async throws -> BlockList {
        let response = try await send(
            StorageRequest(
                .blob,
                "GET",
                blobPath(container, name),
                query: [("comp", "blocklist"), ("blocklisttype", "all")]
            )
        )
        let (committed, uncommitted) = try BlockListXML.readBlocks(response.body, account: accountName)
        // The reply says nothing of the blob but its ETag: its properties are a HEAD away.
        let blob =
            committed.isEmpty && response.header("ETag") == nil
            ? nil : try await blobHead(container: container, name: name)
        return BlockList(committed: committed, uncommitted: uncommitted, blob: blob)
    }

    package func deleteBlob(container: String, name: String, conditions: BlobConditions) async throws {
        forgetBlobs(container)
        _ = try await send(
            StorageRequest(.blob, "DELETE", blobPath(container, name), headers: Self.headers(conditions))
        )
    }

    /// Lists the blobs a page at a time and deletes each page's, `parallel` at once; a blob deleted
    /// meanwhile by someone else is no error.
    package func deleteAllBlobs(container: String) async throws {
        forgetBlobs(container)
        var marker: String?
        repeat {
            let page = try await blobPage(container: container, prefix: "", from: marker, limit: 5000)
            try await forEachConcurrently(page.blobs.map(\.name), limit: parallel) { name in
                do {
                    try await self.deleteBlob(container: container, name: name, conditions: .none)
                } catch let error as StorageError where error.reason == .notFound {}
            }
            marker = page.nextMarker
        } while marker != nil
    }

    // MARK: Requests

    /// Stops taking a container's blobs as known: someone changed them other than by ``putBlob``.
    private func forgetBlobs(_ container: String) {
        known.withLock { _ = $0.newContainers.removeValue(forKey: container) }
    }

    /// Get Blob Properties; nil when there is no such blob (or container).
    private func blobHead(container: String, name: String) async throws -> BlobProperties? {
        let response = try await http.send(StorageRequest(.blob, "HEAD", blobPath(container, name)))
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw error(response, .blob) }
        return try blobProperties(name: name, response)
    }

    private func blobProperties(name: String, _ response: StorageResponse) throws -> BlobProperties {
        guard let size = response.header("Content-Length").flatMap({ Int($0) }), let etag = response.header("ETag")
        else {
            throw unreadable("blob's properties", "Content-Length or ETag is missing")
        }
        return BlobProperties(
            name: name,
            contentType: response.header("Content-Type") ?? "",
            contentMD5: response.header("Content-MD5") ?? "",
            size: size,
            etag: etag,
            lastModified: try lastModified(response),
            headers: BlobContentHeaderFields.readReply(response.header),
            metadata: metadata(response)
        )
    }

    /// A reply's `x-ms-meta-*` pairs. The service checked the names when they were set; one it sends
    /// that is no identifier is skipped rather than failing the read.
    private func metadata(_ response: StorageResponse) -> [String: String] {
        (try? BlobMetadataHeaders.read(response.headers)) ?? [:]
    }

    private func lastModified(_ response: StorageResponse) throws -> EdmDateTime {
        guard let date = response.header("Last-Modified").flatMap(HTTPDate.parse) else {
            throw unreadable("reply", "Last-Modified is missing or malformed")
        }
        return date
    }

    /// A blob's properties as stored right after a write, which Azure's reply does not carry whole (one
    /// HEAD); a blob gone by then is BlobNotFound.
    private func storedProperties(container: String, name: String, after write: String) async throws -> BlobProperties {
        guard let properties = try await blobHead(container: container, name: name) else {
            throw StorageError(
                .notFound,
                account: accountName,
                "blob '\(name)' was deleted as soon as it was \(write)",
                code: "BlobNotFound"
            )
        }
        return properties
    }

    /// A container's properties as stored right after a write; a container gone by then is
    /// ContainerNotFound.
    private func storedProperties(_ container: String, after write: String) async throws -> ContainerProperties {
        guard let properties = try await containerProperties(container) else {
            throw StorageError(
                .notFound,
                account: accountName,
                "container '\(container)' was deleted as soon as \(write)",
                code: "ContainerNotFound"
            )
        }
        return properties
    }

    private func blobPath(_ container: String, _ name: String) -> String {
        "/" + container + "/" + BlobURL.escape(name)
    }

    /// The headers that set a blob's settings on a write: content type, content headers, the MD5
    /// to keep (`x-ms-blob-content-md5`) and, unless left out, metadata.
    private static func headers(_ settings: BlobSettings, metadata: Bool = true) -> [(name: String, value: String)] {
        var headers =
            [(name: "x-ms-blob-content-type", value: settings.contentType)]
            + BlobContentHeaderFields.requestFields(settings.headers)
        if let md5 = settings.contentMD5 { headers.append(("x-ms-blob-content-md5", md5)) }
        if metadata { headers += BlobMetadataHeaders.fields(settings.metadata) }
        return headers
    }

    /// The conditional headers that carry `conditions`.
    private static func headers(_ conditions: BlobConditions) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        if let tag = conditions.ifMatch { headers.append(("If-Match", tag)) }
        if let tag = conditions.ifNoneMatch { headers.append(("If-None-Match", tag)) }
        if let date = conditions.ifModifiedSince { headers.append(("If-Modified-Since", HTTPDate.format(date))) }
        if let date = conditions.ifUnmodifiedSince { headers.append(("If-Unmodified-Since", HTTPDate.format(date))) }
        return headers
    }
}
