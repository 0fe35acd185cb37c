import SpeakEasyData
import Testing

@Suite("Storage conformance: blob containers and blobs")
struct ConformanceBlobs {
    static let container = Conformance.container

    @Test(
        "a blob comes back with its bytes, type, size, Content-MD5, ETag and Last-Modified",
        arguments: ConformanceBackend.all
    )
    func putAndGet(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let before = EdmDateTime.now()
            let data = Array("hello world".utf8)
            #expect(
                try await account.putBlob(
                    container: Self.container,
                    name: "hello.txt",
                    contentType: "text/plain",
                    data: data
                )
            )
            #expect(try await account.blobData(container: Self.container, name: "hello.txt") == data)
            let properties = try await account.blobProperties(container: Self.container)
            #expect(properties.count == 1)
            let listed = try #require(properties.first)
            #expect(listed.name == "hello.txt")
            #expect(listed.contentType == "text/plain")
            #expect(listed.size == 11)
            #expect(listed.contentMD5 == "XrY7u+Ae7tCTyyK7j1rNww==")
            #expect(listed.etag.hasPrefix("\"0x") && listed.etag.hasSuffix("\""), "\(listed.etag)")
            #expect(listed.lastModified >= before.startOfDay)
            let blob = try #require(
                try await account.blob(container: Self.container, name: "hello.txt", range: nil, conditions: .none)
            )
            #expect(blob.properties == listed)
            #expect(blob.data == data)
            #expect(blob.range == 0..<11)
        }
    }

    @Test(
        "Content-MD5 is base64 of the MD5 digest",
        arguments: ConformanceBackend.all,
        [("", "1B2M2Y8AsgTpgAmY7PhCfg=="), ("The quick brown fox jumps over the lazy dog", "nhB9nTcrtoJr2B01QqQZ1g==")]
    )
    func md5(backend: ConformanceBackend, sample: (text: String, md5: String)) async throws {
        let (text, md5) = sample
        try await backend.withAccount(containers: [Self.container]) { account in
            _ = try await account.putBlob(
                container: Self.container,
                name: "b",
                contentType: "application/octet-stream",
                data: Array(text.utf8)
            )
            #expect(try await account.blobProperties(container: Self.container).first?.contentMD5 == md5)
            #expect(try await account.blobData(container: Self.container, name: "b") == Array(text.utf8))
        }
    }

    @Test("putBlob writes only when content or content type changes", arguments: ConformanceBackend.all)
    func putIsIdempotent(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let photo = PlaceholderPhoto.png(forName: "Ada Lovelace")
            #expect(
                try await account.putBlob(
                    container: Self.container,
                    name: "AdaLovelace.png",
                    contentType: "image/png",
                    data: photo
                )
            )
            let first = try await account.blobProperties(container: Self.container)
            #expect(
                try await account.putBlob(
                    container: Self.container,
                    name: "AdaLovelace.png",
                    contentType: "image/png",
                    data: photo
                ) == false
            )
            #expect(
                try await account.blobProperties(container: Self.container) == first,
                "an unchanged blob keeps its ETag and Last-Modified"
            )
            #expect(
                try await account.putBlob(
                    container: Self.container,
                    name: "AdaLovelace.png",
                    contentType: "application/octet-stream",
                    data: photo
                )
            )
            let retyped = try #require(try await account.blobProperties(container: Self.container).first)
            #expect(retyped.contentType == "application/octet-stream")
            #expect(retyped.etag != first.first?.etag)
            let other = PlaceholderPhoto.png(forName: "Alan Turing")
            #expect(
                try await account.putBlob(
                    container: Self.container,
                    name: "AdaLovelace.png",
                    contentType: "image/png",
                    data: other
                )
            )
            #expect(try await account.blobData(container: Self.container, name: "AdaLovelace.png") == other)
            let properties = try await account.blobProperties(container: Self.container)
            #expect(properties.count == 1)
            #expect(properties.first?.size == other.count)
            #expect(properties.first?.etag != retyped.etag)
            #expect(try #require(properties.first?.lastModified) >= retyped.lastModified)
        }
    }

    @Test("binary content with every byte value survives; a missing blob is nil", arguments: ConformanceBackend.all)
    func binaryContent(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container, Conformance.otherContainer]) { account in
            let bytes = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            _ = try await account.putBlob(
                container: Self.container,
                name: "z.bin",
                contentType: "application/octet-stream",
                data: bytes
            )
            #expect(try await account.blobData(container: Self.container, name: "z.bin") == bytes)
            #expect(try await account.blobData(container: Self.container, name: "missing") == nil)
            #expect(
                try await account.blob(
                    container: Self.container,
                    name: "missing",
                    range: ByteRange(first: 0),
                    conditions: .none
                ) == nil
            )
            #expect(try await account.blobData(container: Conformance.otherContainer, name: "z.bin") == nil)
        }
    }

    /// Above a client's single-put size (64 KiB for the Azure client here) a blob goes up in blocks;
    /// it must read back the same as one put at once.
    @Test(
        "a 200 KiB blob is stored whole, with the MD5 of all of it, and a second put of it writes nothing",
        arguments: ConformanceBackend.all
    )
    func largeBlob(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            var generator = SystemRandomNumberGenerator()
            let data = (0..<200 << 10).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(
                try await account.putBlob(
                    container: Self.container,
                    name: "large.bin",
                    contentType: "application/octet-stream",
                    data: data
                )
            )
            let blob = try #require(
                try await account.blob(container: Self.container, name: "large.bin", range: nil, conditions: .none)
            )
            #expect(blob.data == data)
            #expect(blob.properties.size == data.count)
            #expect(blob.properties.contentMD5 == BlobProperties.contentMD5(of: data))
            #expect(
                try await !account.putBlob(
                    container: Self.container,
                    name: "large.bin",
                    contentType: "application/octet-stream",
                    data: data
                )
            )
        }
    }

    @Test("an empty blob is stored and read as empty", arguments: ConformanceBackend.all)
    func emptyBlob(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            #expect(
                try await account.putBlob(container: Self.container, name: "empty", contentType: "text/plain", data: [])
            )
            #expect(try await account.blobData(container: Self.container, name: "empty") == [])
            let properties = try await account.blobProperties(container: Self.container)
            #expect(properties.map(\.size) == [0])
            #expect(properties.map(\.contentMD5) == ["1B2M2Y8AsgTpgAmY7PhCfg=="])
        }
    }

    @Test("blobs are listed sorted by name, byte by byte", arguments: ConformanceBackend.all)
    func listingOrder(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            for name in ["b", "a/b", "B", "a.b", "speakers/Zoë.png", "a", "speakers/Ada.png"] {
                _ = try await account.putBlob(
                    container: Self.container,
                    name: name,
                    contentType: "text/plain",
                    data: Array(name.utf8)
                )
            }
            let listed = try await account.blobProperties(container: Self.container)
            #expect(listed.map(\.name) == ["B", "a", "a.b", "a/b", "b", "speakers/Ada.png", "speakers/Zoë.png"])
            #expect(listed.map(\.size) == listed.map(\.name.utf8.count))
        }
    }

    @Test("container access is recorded once and kept", arguments: ConformanceBackend.all, ContainerAccess.allCases)
    func containerAccess(backend: ConformanceBackend, access: ContainerAccess) async throws {
        try await backend.withAccount { account in
            #expect(try await account.containerAccess(Self.container) == nil)
            try await account.createContainerIfNotExists(Self.container, access: access)
            #expect(try await account.containerAccess(Self.container) == access)
            try await account.createContainerIfNotExists(
                Self.container,
                access: access == .private ? .container : .private
            )
            #expect(try await account.containerAccess(Self.container) == access)
            #expect(try await account.containerNames() == [Self.container])
        }
    }

    @Test("containers are listed sorted, each with its own access", arguments: ConformanceBackend.all)
    func containerNames(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.createContainerIfNotExists("speakers", access: .blob)
            try await account.createContainerIfNotExists("events", access: .container)
            try await account.createContainerIfNotExists("private-notes", access: .private)
            #expect(try await account.containerNames() == ["events", "private-notes", "speakers"])
            #expect(try await account.containerAccess("speakers") == .blob)
            #expect(try await account.containerAccess("events") == .container)
            #expect(try await account.containerAccess("private-notes") == .private)
        }
    }

    @Test(
        "deleteBlob removes one blob; deleting it again is notFound (BlobNotFound)",
        arguments: ConformanceBackend.all
    )
    func deleteBlob(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            _ = try await account.putBlob(container: Self.container, name: "a", contentType: "text/plain", data: [1])
            _ = try await account.putBlob(container: Self.container, name: "b", contentType: "text/plain", data: [2])
            try await account.deleteBlob(container: Self.container, name: "a", conditions: .none)
            #expect(try await account.blobData(container: Self.container, name: "a") == nil)
            #expect(try await account.blobProperties(container: Self.container).map(\.name) == ["b"])
            let error = await storageError {
                try await account.deleteBlob(container: Self.container, name: "a", conditions: .none)
            }
            #expect(error?.reason == .notFound)
            #expect(error?.code == "BlobNotFound")
            #expect(
                try await account.putBlob(container: Self.container, name: "a", contentType: "text/plain", data: [1]),
                "a deleted blob is written again"
            )
        }
    }

    @Test("deleteAllBlobs empties one container only", arguments: ConformanceBackend.all)
    func deleteAllBlobs(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container, Conformance.otherContainer]) { account in
            _ = try await account.putBlob(container: Self.container, name: "a", contentType: "text/plain", data: [1])
            _ = try await account.putBlob(container: Self.container, name: "b", contentType: "text/plain", data: [2])
            _ = try await account.putBlob(
                container: Conformance.otherContainer,
                name: "a",
                contentType: "text/plain",
                data: [3]
            )
            try await account.deleteAllBlobs(container: Self.container)
            #expect(try await account.blobProperties(container: Self.container).isEmpty)
            #expect(
                try await account.containerNames() == [Conformance.otherContainer, Self.container],
                "the container stays"
            )
            #expect(try await account.blobData(container: Conformance.otherContainer, name: "a") == [3])
        }
    }
}
