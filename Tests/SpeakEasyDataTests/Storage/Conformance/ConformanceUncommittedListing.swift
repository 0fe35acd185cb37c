import SpeakEasyData
import Testing

/// List Blobs with `include=uncommittedblobs`: a blob that has only staged blocks is listed, with no
/// content, in name order among the others (issue 48 §3; Azurite: tests/blob/apis/container.test.ts
/// "should only show uncommitted blobs in listBlobHierarchySegment with uncommittedblobs option").
@Suite("Storage conformance: blobs with only staged blocks in listings")
struct ConformanceUncommittedListing {
    static let container = Conformance.container

    /// Committed: `a`, `dir/kept`, and `m`, which has a block staged besides. Only staged: `b`
    /// (two blocks), `only-staged/x` and `only-staged/y`.
    static func fill(_ account: any StorageAccount) async throws {
        for name in ["a", "dir/kept", "m"] {
            _ = try await account.putBlob(container: container, name: name, contentType: "text/plain", data: [1, 2])
        }
        for (name, id) in [
            ("b", "YQ=="), ("b", "Yg=="), ("only-staged/x", "YQ=="), ("only-staged/y", "YQ=="), ("m", "YQ=="),
        ] {
            try await account.stageBlock(container: container, name: name, blockID: id, data: [7, 7, 7])
        }
    }

    static func listed(
        _ account: any StorageAccount,
        prefix: String = "",
        limit: Int,
        includeUncommitted: Bool
    ) async throws -> [BlobProperties] {
        var blobs: [BlobProperties] = []
        var marker: String?
        var pages = 0
        repeat {
            let page = try await account.blobPage(
                container: container,
                prefix: prefix,
                from: marker,
                limit: limit,
                includeUncommitted: includeUncommitted
            )
            #expect(page.blobs.count <= limit)
            blobs += page.blobs
            marker = page.nextMarker
            pages += 1
        } while marker != nil && pages < 100
        return blobs
    }

    @Test(
        "a flat listing shows a staged-only blob, empty, among the others and paged with them",
        arguments: ConformanceBackend.all
    )
    func flat(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            try await Self.fill(account)
            let committed = try await Self.listed(account, limit: 100, includeUncommitted: false)
            #expect(committed.map(\.name) == ["a", "dir/kept", "m"])
            for limit in [1, 2, 4, 100] {
                let all = try await Self.listed(account, limit: limit, includeUncommitted: true)
                #expect(
                    all.map(\.name) == ["a", "b", "dir/kept", "m", "only-staged/x", "only-staged/y"],
                    "\(limit) a page"
                )
                #expect(all.filter(\.isCommitted).map(\.name) == ["a", "dir/kept", "m"], "\(limit) a page")
            }
            let all = try await Self.listed(account, limit: 100, includeUncommitted: true)
            #expect(all.first(where: { $0.name == "b" }) == .uncommitted(name: "b"), "no content, type, ETag or time")
            let m = try #require(all.first { $0.name == "m" })
            #expect(m.size == 2, "a blob with content and staged blocks is listed once, as it stands")
            #expect(m.etag.hasPrefix("\"0x"))
            let folder = try await Self.listed(account, prefix: "only-staged/", limit: 1, includeUncommitted: true)
            #expect(folder == [.uncommitted(name: "only-staged/x"), .uncommitted(name: "only-staged/y")])
            #expect(try await Self.listed(account, prefix: "only-staged/", limit: 1, includeUncommitted: false).isEmpty)

            try await account.commitBlocks(
                container: Self.container,
                name: "b",
                blocks: [.init(id: "YQ==", source: .latest)],
                contentType: "text/plain",
                conditions: .none
            )
            let b = try #require(
                try await Self.listed(account, limit: 100, includeUncommitted: true).first { $0.name == "b" }
            )
            #expect(b.isCommitted && b.size == 3, "committed, it is listed with its content")
        }
    }

    @Test(
        "with a delimiter, a prefix that holds only staged-only blobs is listed, and counts as one",
        arguments: ConformanceBackend.all
    )
    func hierarchy(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            try await Self.fill(account)
            func names(limit: Int, includeUncommitted: Bool) async throws -> [[String]] {
                var pages: [[String]] = []
                var marker: String?
                repeat {
                    let page = try await account.blobListing(
                        container: Self.container,
                        prefix: "",
                        delimiter: "/",
                        from: marker,
                        limit: limit,
                        includeUncommitted: includeUncommitted
                    )
                    pages.append(page.entries.map(\.name))
                    marker = page.nextMarker
                } while marker != nil && pages.count < 100
                return pages
            }
            #expect(try await names(limit: 100, includeUncommitted: false) == [["a", "dir/", "m"]])
            #expect(try await names(limit: 100, includeUncommitted: true) == [["a", "b", "dir/", "m", "only-staged/"]])
            #expect(
                try await names(limit: 2, includeUncommitted: true) == [["a", "b"], ["dir/", "m"], ["only-staged/"]]
            )
            let listing = try await account.blobListing(
                container: Self.container,
                prefix: "",
                delimiter: "/",
                from: nil,
                limit: 100,
                includeUncommitted: true
            )
            #expect(listing.entries[1] == .blob(.uncommitted(name: "b")))
        }
    }
}
