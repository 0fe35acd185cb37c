import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// The user's path: `seed` a store, `serve` it, read it with the official SDK and a browser's GET
/// (python/serve_seeded.py). What the SDK reads must be what `export` writes from the same store, and
/// every photo URL that `seed` wrote must download the photo the store holds.
@Suite("a seeded store served to azure-data-tables and urllib", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct ServeSeededStoreTests {
    struct Seen: Decodable {
        struct Speaker: Decodable {
            var RowKey: String
            var ImageUrl: String
            var status: Int
            var content_type: String?
            var md5: String?
            var size: Int?
        }

        var speakers: [Speaker]
    }

    /// Seeds 8 speakers and `events` events (seed 42), as `seed --seed 42 --events N --from 2026-01-01` does.
    static func seed(_ path: String, events: Int) async throws {
        var request = SeedRequest()
        request.seed = 42
        request.eventCount = events
        request.from = .at("2026-01-01T00:00:00Z")
        let store = try StorageLocation.local(path: path).open(readOnly: false)
        let photos = StorageLocation.localBlobEndpoint + DataContract.photoContainer + "/"
        _ = try await Seeder(catalog: try SampleCatalog(directory: TestPaths.samples), request: request).run(
            store: store,
            photoBaseURL: photos
        )
        try await store.flush()
    }

    /// `export --partition Events --metadata full --to events.ndjson` of the store, read back.
    static func exported(_ path: String, scratch: String) async throws -> [Entity] {
        var options = EntityFiles.WriteOptions(format: .ndjson)
        options.metadata = .full
        let target = scratch + "/events.ndjson"
        let store = try StorageLocation.local(path: path).open(readOnly: true)
        try await Exporter(writeOptions: options).run(
            [.store(store, table: DataContract.table, partition: DataContract.eventsPartition)],
            to: try OutputFile(path: target)
        )
        var reader = JSONEntityStreamReader(input: try ByteInput(path: target), layout: .lines)
        return try readAll(&reader)
    }

    /// Small pages (many continuations), and Azure's pages of 1,000, which `serve` writes in two
    /// halves on two threads from 200 entities up.
    @Test(
        "the SDK's query of partition Events equals export's, and every ImageUrl downloads the stored photo",
        arguments: [(pageSize: 7, events: 100), (pageSize: 1000, events: 450)]
    )
    func seededStore(pageSize: Int, events: Int) async throws {
        // `serve` answers to the local account's own name too, the one in the photo URLs.
        let configure = { (configuration: inout ServerConfiguration) in
            configuration.pageSize = pageSize
            configuration.accountAliases = [StorageLocation.localAccountName]
        }
        try await withRunningServer(
            configure: configure,
            prepare: { try await Self.seed($0, events: events) },
            { server in
                try await withTemporaryDirectory { scratch in
                    let endpoint = "http://127.0.0.1:\(server.port(.table))/\(DevelopmentAccount.name)"
                    let dumpPath = scratch + "/events.dump"
                    let output = try await offPool {
                        try PythonSDK.run("serve_seeded.py", [endpoint, "\(server.port(.blob))", dumpPath])
                    }
                    let seen = try JSONDecoder().decode(Seen.self, from: Data(output))

                    let ours = try await Self.exported(server.store, scratch: scratch)
                    let theirs = try DumpEntity.lines(try Data(contentsOf: URL(fileURLWithPath: dumpPath)))
                    #expect(ours.count == events)
                    #expect(
                        theirs.map(\.rowKey) == ours.map(\.rowKey),
                        "the same entities in the same order, in pages of \(pageSize)"
                    )
                    for (mine, sdk) in zip(ours, theirs) {
                        let differences = Comparison().differences(ours: mine, theirs: sdk)
                        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
                    }

                    let store = try StorageLocation.local(path: server.store).open(readOnly: true)
                    let blobs = try await store.blobProperties(container: DataContract.photoContainer)
                    let photos = Dictionary(uniqueKeysWithValues: blobs.map { ($0.name, $0) })
                    #expect(seen.speakers.count == 8)
                    #expect(photos.count == 8)
                    for speaker in seen.speakers {
                        let name = String(speaker.ImageUrl.split(separator: "/").last ?? "")
                        let stored = try #require(
                            photos[name.removingPercentEncoding ?? name],
                            "\(speaker.ImageUrl) names no stored photo"
                        )
                        #expect(speaker.status == 200, "\(speaker.ImageUrl)")
                        #expect(
                            speaker.md5 == stored.contentMD5,
                            "\(speaker.ImageUrl): the download is the stored photo"
                        )
                        #expect(speaker.size == stored.size)
                        #expect(speaker.content_type == stored.contentType)
                    }
                }
            }
        )
    }
}
