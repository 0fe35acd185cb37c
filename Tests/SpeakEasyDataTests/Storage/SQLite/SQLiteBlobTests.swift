import SpeakEasyData
import SpeakEasySQLite
import Testing

/// Blobs as the protocol defines them are in the conformance suite
/// (`Storage/Conformance/ConformanceBlobs.swift` and beside it); this is the local account's own.
@Suite("SQLite storage account: blob containers and blobs")
struct SQLiteBlobTests {
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

    @Test("small blobs are read on the caller's thread, large ones on a reading thread: both whole and in ranges")
    func shortAndLongReads() async throws {
        try await withStore { store, _ in
            try await store.createContainerIfNotExists("c", access: .private)
            let small = (0..<1000).map { UInt8(truncatingIfNeeded: $0) }
            let large = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            _ = try await store.putBlob(
                container: "c",
                name: "small",
                contentType: "application/octet-stream",
                data: small
            )
            _ = try await store.putBlob(
                container: "c",
                name: "large",
                contentType: "application/octet-stream",
                data: large
            )
            #expect(
                try await store.blob(container: "c", name: "small", range: nil, conditions: BlobConditions())?.data
                    == small
            )
            #expect(
                try await store.blob(container: "c", name: "large", range: nil, conditions: BlobConditions())?.data
                    == large
            )
            let tail = try await store.blob(
                container: "c",
                name: "large",
                range: ByteRange(first: 1 << 20),
                conditions: BlobConditions()
            )
            #expect(tail?.data == Array(large[(1 << 20)...]))
            let piece = try await store.blob(
                container: "c",
                name: "large",
                range: ByteRange(first: 100, last: 199),
                conditions: BlobConditions()
            )
            #expect(piece?.data == Array(large[100...199]))
            #expect(
                try await store.blob(container: "c", name: "missing", range: nil, conditions: BlobConditions()) == nil
            )
        }
    }

    @Test("more point reads at once than lent connections: those without one go to the reading threads")
    func manyPointReadsAtOnce() async throws {
        try await withStore { store, _ in
            let entities = (0..<200).map {
                Entity(partitionKey: "p", rowKey: String($0), properties: [Property("N", .int32(Int32($0)))])
            }
            try await store.write(entities.map(EncodedEntity.init), table: "t", mode: .insert)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for round in 0..<2000 {
                    group.addTask {
                        let key = round % 200
                        let entity = try await store.entity(table: "t", partitionKey: "p", rowKey: String(key))
                        #expect(entity?.properties == [Property("N", .int32(Int32(key)))])
                        #expect(try await store.entity(table: "t", partitionKey: "p", rowKey: "none") == nil)
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}
