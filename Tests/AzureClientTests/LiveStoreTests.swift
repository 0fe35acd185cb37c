import Foundation
import SpeakEasyAzure
import SpeakEasyData
import TestSupport
import Testing

/// The client against a real account: Azure itself or Azurite, named by `SPEAKEASY_LIVE_STORE` as
/// `--store` names one (`azure` with `AZURE_STORAGE_CONNECTION_STRING`, `dev`, or a connection
/// string). Skipped without it: no account can be reached from CI. It makes a table and a container
/// of its own, with random names, and deletes both at the end.
@Suite(
    "a live storage account (SPEAKEASY_LIVE_STORE)",
    .enabled(if: LiveStore.value != nil, "set SPEAKEASY_LIVE_STORE to 'azure', 'dev' or a connection string to run it")
)
struct LiveStoreTests {
    static func account() throws -> AzureStorageAccount {
        let location = try StorageLocation(
            try #require(LiveStore.value),
            environment: ProcessInfo.processInfo.environment
        )
        guard case .azure(let connection) = location else {
            throw ConnectionString.ParseError(
                setting: "SPEAKEASY_LIVE_STORE",
                reason: "names a local file, not an Azure account"
            )
        }
        // Small blocks, so that a blob of a few hundred KiB goes up in several.
        return AzureStorageAccount(connection, singlePutLimit: 256 << 10, blockSize: 100 << 10)
    }

    @Test("tables, batches, continuation, ETags, transactions and blobs in blocks, on the live account")
    func roundTrip() async throws {
        let account = try Self.account()
        let suffix = String(UInt32.random(in: .min ... .max), radix: 16)
        let table = "speakeasylive" + suffix
        let container = "speakeasy-live-" + suffix
        do {
            try await Self.tables(account, table)
            try await Self.blobs(account, container)
        } catch {
            try? await account.deleteTable(table)
            try? await account.deleteContainer(container)
            throw error
        }
        try await account.deleteTable(table)
        try await account.deleteContainer(container)
    }

    static func tables(_ account: AzureStorageAccount, _ table: String) async throws {
        try await account.createTableIfNotExists(table)
        try await account.createTableIfNotExists(table)
        #expect(try await account.tableNames().contains(table))
        let entities = (0..<250).map { index in
            Entity(
                partitionKey: index < 200 ? "Events" : "speakers",
                rowKey: String(format: "r%04d", index),
                properties: [
                    Property("EventDate", .dateTime(.at("2027-01-02T03:04:05.0000001Z"))),
                    Property("Count", .int64(Int64(index) << 33)),
                ]
                    + SampleProperties.storable
            )
        }
        try await account.write(entities, table: table, mode: .insert)
        // Every entity comes back exactly, in pages of 70 whose continuations are the service's own.
        var read: [Entity] = []
        var from: ContinuationToken?
        repeat {
            let page = try await account.query(table: table, .all, from: from, limit: 70)
            read += page.entities
            from = page.next
        } while from != nil
        #expect(read.map(\.content) == entities.map(\.content))
        var digests: [KeyedDigest] = []
        try await account.forEachDigest(table: table, partition: "Events") { digests.append($0) }
        #expect(digests.map(\.digest) == entities.prefix(200).map { EntityDigest($0) })

        let first = try #require(read.first)
        let etag = try await account.update(
            EncodedEntity(first.content),
            table: table,
            merge: true,
            ifMatch: try #require(first.etag)
        )
        await #expect(throws: StorageError.self) {
            _ = try await account.update(
                EncodedEntity(first.content),
                table: table,
                merge: true,
                ifMatch: try #require(first.etag)
            )
        }
        _ = try await account.transact(
            [
                EntityOperation(.delete(ifMatch: etag), EncodedEntity(first.content)),
                EntityOperation(.insertOrReplace, EncodedEntity(read[1].content)),
            ],
            table: table
        )
        #expect(try await account.entity(table: table, partitionKey: first.partitionKey, rowKey: first.rowKey) == nil)
        try await account.deleteAllEntities(table: table)
        #expect(try await !account.holdsEntities(table: table))
    }

    static func blobs(_ account: AzureStorageAccount, _ container: String) async throws {
        #expect(try await account.createContainerIfNotExists(container, access: .private))
        let large = (0..<(600 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        #expect(
            try await account.putBlob(
                container: container,
                name: "large/ü ber.bin",
                contentType: "application/octet-stream",
                data: large
            )
        )
        #expect(
            try await !account.putBlob(
                container: container,
                name: "large/ü ber.bin",
                contentType: "application/octet-stream",
                data: large
            )
        )
        #expect(
            try await account.putBlob(
                container: container,
                name: "small.txt",
                contentType: "text/plain",
                data: Array("hello".utf8)
            )
        )
        #expect(try await account.blobProperties(container: container).map(\.name) == ["large/ü ber.bin", "small.txt"])
        let range = try #require(
            try await account.blob(
                container: container,
                name: "large/ü ber.bin",
                range: ByteRange(first: 1000, last: 1999),
                conditions: .none
            )
        )
        #expect(range.data == Array(large[1000..<2000]))
        #expect(try await account.blobData(container: container, name: "large/ü ber.bin") == large)
        try await account.deleteAllBlobs(container: container)
        #expect(try await account.blobProperties(container: container).isEmpty)
    }
}

enum LiveStore {
    /// The `--store` value naming the live account, if one is given.
    static let value = ProcessInfo.processInfo.environment["SPEAKEASY_LIVE_STORE"].flatMap { $0.isEmpty ? nil : $0 }
}
