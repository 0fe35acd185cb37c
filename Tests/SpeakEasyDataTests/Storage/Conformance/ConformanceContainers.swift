import SpeakEasyData
import Testing

@Suite("Storage conformance: containers and blob listings")
struct ConformanceContainers {
    static let container = Conformance.container

    @Test(
        "a container is created once, keeps its access and properties, and is deleted with its blobs",
        arguments: ConformanceBackend.all
    )
    func lifecycle(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: []) { account in
            let before = EdmDateTime.now()
            #expect(try await account.containerProperties(Self.container) == nil)
            #expect(try await account.createContainerIfNotExists(Self.container, access: .blob))
            #expect(
                try await account.createContainerIfNotExists(Self.container, access: .private) == false,
                "already there"
            )
            let properties = try #require(try await account.containerProperties(Self.container))
            #expect(properties.name == Self.container)
            #expect(properties.access == .blob, "the first creation's access stays")
            #expect(properties.etag.hasPrefix("\"0x"), "\(properties.etag)")
            #expect(properties.lastModified >= before.startOfDay)
            _ = try await account.putBlob(container: Self.container, name: "a", contentType: "text/plain", data: [1])
            try await account.deleteContainer(Self.container)
            #expect(try await account.containerProperties(Self.container) == nil)
            #expect(try await account.containerNames().isEmpty)
            let error = await storageError { try await account.deleteContainer(Self.container) }
            #expect(error?.reason == .notFound)
            #expect(error?.code == "ContainerNotFound")
            #expect(try await account.createContainerIfNotExists(Self.container, access: .private))
            #expect(
                try await account.blobProperties(container: Self.container).isEmpty,
                "a container made again starts empty"
            )
        }
    }

    @Test("listing pages by prefix and marker gives every match once, in byte order", arguments: ConformanceBackend.all)
    func pages(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let names = [
                "a", "speakers/ada.jpg", "speakers/bob.jpg", "speakers/zoë.jpg", "speakers0", "speakersX", "z",
            ]
            for name in names.shuffled() {
                _ = try await account.putBlob(
                    container: Self.container,
                    name: name,
                    contentType: "image/jpeg",
                    data: [1]
                )
            }
            for (prefix, limit) in [
                ("", 1), ("", 3), ("", 100), ("speakers/", 1), ("speakers/", 2), ("speakers", 4), ("nothing", 2),
            ] {
                var listed: [String] = []
                var marker: String?
                var pages = 0
                repeat {
                    let page = try await account.blobPage(
                        container: Self.container,
                        prefix: prefix,
                        from: marker,
                        limit: limit
                    )
                    #expect(page.blobs.count <= limit)
                    listed += page.blobs.map(\.name)
                    marker = page.nextMarker
                    pages += 1
                } while marker != nil && pages < 100
                let expected = names.filter { $0.hasPrefix(prefix) }.sorted {
                    $0.utf8.lexicographicallyPrecedes($1.utf8)
                }
                #expect(listed == expected, "prefix '\(prefix)', \(limit) a page")
            }
            let error = await storageError {
                _ = try await account.blobPage(container: "missing", prefix: "", from: nil, limit: 10)
            }
            #expect(error?.code == "ContainerNotFound")
        }
    }
}
