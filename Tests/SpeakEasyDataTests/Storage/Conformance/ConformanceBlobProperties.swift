import SpeakEasyData
import Testing

/// What a blob and a container keep besides their bytes, on every backend alike: metadata, content
/// headers, Set Blob Metadata and Properties, container metadata and ACLs with stored access
/// policies, Get Block List, Put Blob's new ETag on every write, and List Blobs with a delimiter.
@Suite("Storage conformance: blob properties, metadata, ACLs and hierarchy")
struct ConformanceBlobProperties {
    static let container = Conformance.container
    static let headers = BlobContentHeaders(
        cacheControl: "max-age=60",
        contentDisposition: "inline",
        contentEncoding: "identity",
        contentLanguage: "en"
    )

    @Test(
        "metadata and content headers of Put Blob come back from HEAD, GET and List Blobs",
        arguments: ConformanceBackend.all
    )
    func storedSettings(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let settings = BlobSettings(
                contentType: "text/plain",
                headers: Self.headers,
                metadata: ["mtime": "1700000000.5", "Owner": "ada"]
            )
            let stored = try await account.storeBlob(
                container: Self.container,
                name: "a.txt",
                data: Array("hello".utf8),
                settings: settings,
                conditions: .none
            )
            #expect(stored.metadata == settings.metadata)
            #expect(stored.headers == Self.headers)
            let head = try #require(
                try await account.blobProperties(container: Self.container, name: "a.txt", conditions: .none)
            )
            #expect(head == stored)
            let blob = try #require(
                try await account.blob(container: Self.container, name: "a.txt", range: nil, conditions: .none)
            )
            #expect(blob.properties == stored)
            #expect(try await account.blobProperties(container: Self.container) == [stored])
            #expect(
                try await account.blobProperties(container: Self.container, name: "missing", conditions: .none) == nil
            )
        }
    }

    @Test(
        "Put Blob of the same bytes gives a new ETag; Set Blob Metadata and Properties change only theirs",
        arguments: ConformanceBackend.all
    )
    func setters(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let settings = BlobSettings(contentType: "text/plain", headers: Self.headers, metadata: ["a": "1"])
            let first = try await account.storeBlob(
                container: Self.container,
                name: "b",
                data: [1, 2, 3],
                settings: settings,
                conditions: .none
            )
            try await Task.sleep(for: .milliseconds(2))
            let second = try await account.storeBlob(
                container: Self.container,
                name: "b",
                data: [1, 2, 3],
                settings: settings,
                conditions: .none
            )
            #expect(second.etag != first.etag, "every Put Blob is a new write")
            let metadata = try await account.setBlobMetadata(
                container: Self.container,
                name: "b",
                metadata: ["b": "2"],
                conditions: BlobConditions(ifMatch: second.etag)
            )
            #expect(metadata.metadata == ["b": "2"])
            #expect(metadata.headers == Self.headers)
            #expect(metadata.etag != second.etag)
            let stale = await storageError {
                try await account.setBlobMetadata(
                    container: Self.container,
                    name: "b",
                    metadata: [:],
                    conditions: BlobConditions(ifMatch: second.etag)
                )
            }
            #expect(stale?.reason == .preconditionFailed)
            let properties = try await account.setBlobProperties(
                container: Self.container,
                name: "b",
                settings: BlobSettings(
                    contentType: "application/json",
                    headers: BlobContentHeaders(cacheControl: "no-cache")
                ),
                conditions: .none
            )
            #expect(properties.contentType == "application/json")
            #expect(
                properties.headers == BlobContentHeaders(cacheControl: "no-cache"),
                "what Set Blob Properties is not given is cleared"
            )
            #expect(properties.contentMD5 == "", "Content-MD5 too")
            #expect(properties.metadata == ["b": "2"])
            #expect(try await account.blobData(container: Self.container, name: "b") == [1, 2, 3])
            let missing = await storageError {
                try await account.setBlobMetadata(
                    container: Self.container,
                    name: "nope",
                    metadata: [:],
                    conditions: .none
                )
            }
            #expect(missing?.code == "BlobNotFound")
        }
    }

    @Test("container metadata and ACLs: public access and stored access policies", arguments: ConformanceBackend.all)
    func containers(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: []) { account in
            #expect(
                try await account.createContainerIfNotExists("docs", access: .private, metadata: ["owner": "events"])
            )
            #expect(try await account.containerProperties("docs")?.metadata == ["owner": "events"])
            let before = try #require(try await account.containerProperties("docs"))
            let changed = try await account.setContainerMetadata(
                "docs",
                metadata: ["owner": "speakers", "year": "2024"]
            )
            #expect(changed.metadata == ["owner": "speakers", "year": "2024"])
            #expect(try await account.containerProperties("docs")?.metadata == changed.metadata)
            #expect(before.etag != changed.etag || before.lastModified <= changed.lastModified)
            #expect(try await account.containerPolicies("docs") == [])
            let start = try EdmDateTime(parsing: "2024-01-01T00:00:00.0000000Z")
            let expiry = try EdmDateTime(parsing: "2099-01-01T00:00:00.0000000Z")
            let policies = [
                StoredAccessPolicy(id: "readers", start: start, expiry: expiry, permission: "r"),
                StoredAccessPolicy(id: "open"),
            ]
            let acl = try await account.setContainerACL("docs", access: .container, policies: policies)
            #expect(acl.access == .container)
            #expect(try await account.containerPolicies("docs") == policies)
            #expect(
                try await account.containerProperties("docs")?.metadata == changed.metadata,
                "an ACL leaves metadata alone"
            )
            try await account.setContainerACL("docs", access: .private, policies: [])
            #expect(try await account.containerProperties("docs")?.access == .private)
            #expect(try await account.containerPolicies("docs") == [])
            #expect(try await account.containerPolicies("missing") == nil)
            let missing = await storageError { try await account.setContainerMetadata("missing", metadata: [:]) }
            #expect(missing?.code == "ContainerNotFound")
        }
    }

    @Test("Get Block List: committed blocks in order, staged ones apart", arguments: ConformanceBackend.all)
    func blockList(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            for id in ["MQ==", "Mg==", "Mw=="] {
                try await account.stageBlock(
                    container: Self.container,
                    name: "big",
                    blockID: id,
                    data: Array("HelloWorld".utf8)
                )
            }
            let staged = try await account.blockList(container: Self.container, name: "big")
            #expect(staged.committed.isEmpty)
            #expect(staged.uncommitted.map(\.id).sorted() == ["MQ==", "Mg==", "Mw=="])
            #expect(staged.blob == nil)
            try await account.commitBlocks(
                container: Self.container,
                name: "big",
                blocks: [.init(id: "Mg==", source: .latest), .init(id: "MQ==", source: .latest)],
                contentType: "text/plain",
                conditions: .none
            )
            try await account.stageBlock(
                container: Self.container,
                name: "big",
                blockID: "NA==",
                data: Array("staged".utf8)
            )
            let list = try await account.blockList(container: Self.container, name: "big")
            #expect(list.committed == [.init(id: "Mg==", size: 10), .init(id: "MQ==", size: 10)])
            #expect(list.uncommitted == [.init(id: "NA==", size: 6)])
            #expect(list.blob?.size == 20)
            let missing = await storageError {
                _ = try await account.blockList(container: Self.container, name: "none")
            }
            #expect(missing?.code == "BlobNotFound")
        }
    }

    @Test(
        "List Blobs with a delimiter folds names into prefixes, in name order, each counting as one",
        arguments: ConformanceBackend.all
    )
    func hierarchy(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            for name in [
                "a.txt", "photos/2024/1.jpg", "photos/2024/2.jpg", "photos/cover.jpg", "photos0.txt", "z/deep/x.txt",
                "zz.txt",
            ] {
                _ = try await account.putBlob(
                    container: Self.container,
                    name: name,
                    contentType: "text/plain",
                    data: [1]
                )
            }
            func names(_ entries: [BlobListingEntry]) -> [String] { entries.map(\.name) }
            let all = try await account.blobListing(
                container: Self.container,
                prefix: "",
                delimiter: "/",
                from: nil,
                limit: 100
            )
            #expect(names(all.entries) == ["a.txt", "photos/", "photos0.txt", "z/", "zz.txt"])
            #expect(all.nextMarker == nil)
            let photos = try await account.blobListing(
                container: Self.container,
                prefix: "photos/",
                delimiter: "/",
                from: nil,
                limit: 100
            )
            #expect(names(photos.entries) == ["photos/2024/", "photos/cover.jpg"])
            var pages: [[String]] = []
            var marker: String?
            repeat {
                let page = try await account.blobListing(
                    container: Self.container,
                    prefix: "",
                    delimiter: "/",
                    from: marker,
                    limit: 2
                )
                pages.append(names(page.entries))
                marker = page.nextMarker
            } while marker != nil
            #expect(pages == [["a.txt", "photos/"], ["photos0.txt", "z/"], ["zz.txt"]])
        }
    }
}
