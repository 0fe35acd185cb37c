import SpeakEasyData
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
}
