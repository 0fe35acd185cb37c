import SpeakEasyData
import Testing

@Suite("SQLite storage account: blob containers and blobs")
struct SQLiteBlobTests {
    @Test("a blob comes back with its bytes, type, size and Content-MD5")
    func putAndGet() async throws {
        try await withStore { store, _ in
            try await store.createContainerIfNotExists("speakers", access: .container)
            let data = Array("hello world".utf8)
            #expect(try await store.putBlob(container: "speakers", name: "hello.txt", contentType: "text/plain", data: data))
            #expect(try await store.blobData(container: "speakers", name: "hello.txt") == data)
            let properties = try await store.blobProperties(container: "speakers")
            #expect(properties.count == 1)
            let blob = try #require(properties.first)
            #expect(blob.name == "hello.txt")
            #expect(blob.contentType == "text/plain")
            #expect(blob.size == 11)
            #expect(blob.contentMD5 == "XrY7u+Ae7tCTyyK7j1rNww==")
            #expect(blob.etag.hasPrefix("\"0x") && blob.etag.hasSuffix("\""))
            #expect(blob.lastModified > .azureMinimum)
        }
    }

    @Test("Content-MD5 is base64 of the MD5 digest", arguments: [("", "1B2M2Y8AsgTpgAmY7PhCfg=="), ("The quick brown fox jumps over the lazy dog", "nhB9nTcrtoJr2B01QqQZ1g==")])
    func md5(text: String, md5: String) async throws {
        try await withStore { store, _ in
            _ = try await store.putBlob(container: "c", name: "b", contentType: "application/octet-stream", data: Array(text.utf8))
            #expect(try await store.blobProperties(container: "c").first?.contentMD5 == md5)
            #expect(try await store.blobData(container: "c", name: "b") == Array(text.utf8))
        }
    }

    @Test("putBlob writes only when content or content type changes")
    func putIsIdempotent() async throws {
        try await withStore { store, _ in
            let photo = PlaceholderPhoto.png(forName: "Ada Lovelace")
            #expect(try await store.putBlob(container: "speakers", name: "AdaLovelace.png", contentType: "image/png", data: photo))
            let first = try await store.blobProperties(container: "speakers")
            #expect(try await store.putBlob(container: "speakers", name: "AdaLovelace.png", contentType: "image/png", data: photo) == false)
            #expect(try await store.blobProperties(container: "speakers") == first)
            #expect(try await store.putBlob(container: "speakers", name: "AdaLovelace.png", contentType: "application/octet-stream", data: photo))
            let other = PlaceholderPhoto.png(forName: "Alan Turing")
            #expect(try await store.putBlob(container: "speakers", name: "AdaLovelace.png", contentType: "image/png", data: other))
            #expect(try await store.blobData(container: "speakers", name: "AdaLovelace.png") == other)
            let properties = try await store.blobProperties(container: "speakers")
            #expect(properties.count == 1)
            #expect(properties.first?.size == other.count)
        }
    }

    @Test("binary content with every byte value survives; listing is by name")
    func binaryContent() async throws {
        try await withStore { store, _ in
            let bytes = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            _ = try await store.putBlob(container: "c", name: "z.bin", contentType: "application/octet-stream", data: bytes)
            _ = try await store.putBlob(container: "c", name: "a.bin", contentType: "application/octet-stream", data: [0])
            #expect(try await store.blobData(container: "c", name: "z.bin") == bytes)
            #expect(try await store.blobProperties(container: "c").map(\.name) == ["a.bin", "z.bin"])
            #expect(try await store.blobData(container: "c", name: "missing") == nil)
            #expect(try await store.blobData(container: "other", name: "a.bin") == nil)
        }
    }

    @Test("an empty blob is stored and read as empty")
    func emptyBlob() async throws {
        try await withStore { store, _ in
            let written = try await store.putBlob(container: "c", name: "empty", contentType: "text/plain", data: [])
            #expect(written)
            #expect(try await store.blobData(container: "c", name: "empty") == [])
            #expect(try await store.blobProperties(container: "c").first?.size == 0)
        }
    }

    @Test("container access is recorded once and kept", arguments: ContainerAccess.allCases)
    func containerAccess(access: ContainerAccess) async throws {
        try await withStore { store, _ in
            #expect(try await store.containerAccess("speakers") == nil)
            try await store.createContainerIfNotExists("speakers", access: access)
            #expect(try await store.containerAccess("speakers") == access)
            try await store.createContainerIfNotExists("speakers", access: access == .private ? .container : .private)
            #expect(try await store.containerAccess("speakers") == access)
        }
    }

    @Test("deleteAllBlobs empties one container only")
    func deleteAllBlobs() async throws {
        try await withStore { store, _ in
            _ = try await store.putBlob(container: "one", name: "a", contentType: "text/plain", data: [1])
            _ = try await store.putBlob(container: "one", name: "b", contentType: "text/plain", data: [2])
            _ = try await store.putBlob(container: "two", name: "a", contentType: "text/plain", data: [3])
            try await store.deleteAllBlobs(container: "one")
            #expect(try await store.blobProperties(container: "one").isEmpty)
            #expect(try await store.blobData(container: "two", name: "a") == [3])
        }
    }

    @Test("blob URLs use the local path-style endpoint and parse back")
    func blobURLs() async throws {
        try await withStore { store, _ in
            let url = store.blobURL(container: "speakers", blob: "BTubalinal.jpg")
            #expect(url == "http://127.0.0.1:10000/speakeasy/speakers/BTubalinal.jpg")
            let escaped = store.blobURL(container: "speakers", blob: "Zoe Müller.png")
            #expect(escaped == "http://127.0.0.1:10000/speakeasy/speakers/Zoe%20M%C3%BCller.png")
            #expect(BlobURL(escaped) == BlobURL(account: "speakeasy", container: "speakers", blob: "Zoe Müller.png"))
        }
    }
}
