import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// Our Azure client and the official SDKs on one account (`serve`, over HTTP): what `seed --store`
/// writes the SDKs read back as generated, and what the SDKs write our client exports as they hold
/// it and `validate` passes (python/azure_store_sdk.py).
@Suite(
    "the Azure client beside azure-data-tables and azure-storage-blob",
    .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable)
)
struct AzureStoreSDKTests {
    struct Photos: Decodable {
        struct Photo: Decodable {
            var name: String
            var content_type: String
            var md5: String
            var size: Int
        }

        var photos: [Photo]
    }

    static func request(seed: UInt64, events: Int) -> SeedRequest {
        var request = SeedRequest()
        request.seed = seed
        request.eventCount = events
        request.from = .at("2026-01-01T00:00:00Z")
        return request
    }

    /// A seed into `store`, its photo URLs in the served account.
    static func seed(_ store: any StorageAccount, _ connection: AzureConnection, seed: UInt64, events: Int) async throws
    {
        let photos = AzureStorageAccount.blobURL(connection, container: DataContract.photoContainer, blob: "")
        _ = try await Seeder(
            catalog: try SampleCatalog(directory: TestPaths.samples),
            request: request(seed: seed, events: events)
        ).run(store: store, photoBaseURL: photos)
    }

    static func account(_ server: RunningServer) throws -> (AzureStorageAccount, AzureConnection) {
        let connection = try AzureConnection(ConnectionString(server.connectionString()))
        return (AzureStorageAccount(connection), connection)
    }

    /// Every entity of table `events`, in key order, as our client reads them (Timestamp and ETag
    /// included).
    static func entities(_ store: any StorageAccount) async throws -> [Entity] {
        var entities: [Entity] = []
        try await store.forEachEntity(table: DataContract.table, partition: nil) { entities.append($0) }
        return entities
    }

    /// `theirs` and `ours` name the same entities in the same order with the same values, Timestamps
    /// and ETags.
    static func expectSame(ours: [Entity], theirs: [DumpEntity], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            theirs.map(\.rowKey) == ours.map(\.rowKey),
            "the same entities in the same order",
            sourceLocation: sourceLocation
        )
        var differences: [String] = []
        for (mine, sdk) in zip(ours, theirs) { differences += Comparison().differences(ours: mine, theirs: sdk) }
        #expect(
            differences.isEmpty,
            "\(differences.count) differences, first: \(differences.prefix(5).joined(separator: "\n"))",
            sourceLocation: sourceLocation
        )
    }

    @Test(
        "what seed writes through the client, azure-data-tables and azure-storage-blob read back as generated, Timestamps and ETags as the client reads them"
    )
    func seedThenSDKReads() async throws {
        try await withRunningServer { server in
            try await withTemporaryDirectory { scratch in
                let (account, connection) = try Self.account(server)
                try await Self.seed(account, connection, seed: 42, events: 450)
                // The same seed into a local account: what was generated, with no HTTP in between.
                let reference = try StorageLocation.local(path: scratch + "/reference.sqlite").open(readOnly: false)
                try await Self.seed(reference, connection, seed: 42, events: 450)

                let dump = scratch + "/events.dump"
                let output = try await offPool {
                    try PythonSDK.run(
                        "azure_store_sdk.py",
                        ["read", connection.tableEndpoint, connection.blobEndpoint, dump]
                    )
                }
                let theirs = try DumpEntity.lines(try Data(contentsOf: URL(fileURLWithPath: dump)))
                let ours = try await Self.entities(account)
                #expect(ours.count == 458)
                Self.expectSame(ours: ours, theirs: theirs)
                #expect(
                    ours.map(\.content) == (try await Self.entities(reference)).map(\.content),
                    "the served entities are those generated"
                )

                let photos = try JSONDecoder().decode(Photos.self, from: Data(output)).photos
                let stored = try await reference.blobProperties(container: DataContract.photoContainer)
                #expect(photos.map(\.name) == stored.map(\.name))
                for (photo, blob) in zip(photos, stored) {
                    #expect(
                        photo.md5 == blob.contentMD5 && photo.size == blob.size
                            && photo.content_type == blob.contentType,
                        "\(photo.name)"
                    )
                }
            }
        }
    }

    @Test("what the SDKs write, the client exports as azure-data-tables holds it, and validate finds nothing")
    func sdkWritesThenExportAndValidate() async throws {
        try await withRunningServer { server in
            try await withTemporaryDirectory { scratch in
                let (account, connection) = try Self.account(server)
                // A valid data set for the SDKs to write: a local seed, exported to JSON, its photos as files.
                let local = try StorageLocation.local(path: scratch + "/local.sqlite").open(readOnly: false)
                try await Self.seed(local, connection, seed: 5, events: 300)
                try await Exporter(writeOptions: EntityFiles.WriteOptions(format: .json)).run(
                    [.store(local, table: DataContract.table, partition: nil)],
                    to: try OutputFile(path: scratch + "/data.json")
                )
                try FileManager.default.createDirectory(atPath: scratch + "/photos", withIntermediateDirectories: false)
                for blob in try await local.blobProperties(container: DataContract.photoContainer) {
                    let data = try #require(
                        try await local.blobData(container: DataContract.photoContainer, name: blob.name)
                    )
                    try Data(data).write(to: URL(fileURLWithPath: scratch + "/photos/" + blob.name))
                }

                let output = try await offPool {
                    try PythonSDK.run(
                        "azure_store_sdk.py",
                        [
                            "write", connection.tableEndpoint, connection.blobEndpoint, scratch + "/data.json",
                            scratch + "/photos",
                        ]
                    )
                }
                let theirs = try DumpEntity.lines(output)

                // `export --store … --metadata full`, read back.
                var options = EntityFiles.WriteOptions(format: .ndjson)
                options.metadata = .full
                try await Exporter(writeOptions: options).run(
                    [.store(account, table: DataContract.table, partition: nil)],
                    to: try OutputFile(path: scratch + "/exported.ndjson")
                )
                var reader = JSONEntityStreamReader(
                    input: try ByteInput(path: scratch + "/exported.ndjson"),
                    layout: .lines
                )
                let exported = try readAll(&reader)
                #expect(exported.count == 308)
                Self.expectSame(ours: exported, theirs: theirs)
                #expect(
                    exported.map(\.content) == (try await Self.entities(local)).map(\.content),
                    "the SDK wrote what it was given"
                )

                let report = try await StoreValidation.run(account, options: ValidationOptions())
                #expect(report.findings.isEmpty, "\(report.findings.prefix(5))")
                #expect(report.entitiesChecked == 308)
            }
        }
    }
}
