import Foundation
import SpeakEasyData
import Testing

/// A blob that has only staged blocks, in a List Blobs reply: as Azure wrote one in the recorded
/// reply `blob-list-blobs-uncommitted-response.xml`.
@Suite("Blob protocol: blobs with only staged blocks in List Blobs")
struct BlobListingUncommittedTests {
    static let fixture = "blob-list-blobs-uncommitted-response.xml"

    /// The recorded `<Blob>` element whose name is `name`, byte for byte.
    static func recordedBlob(_ name: String) throws -> String {
        let text = try AzureFixture.text(fixture)
        let start = try #require(text.range(of: "<Blob><Name>\(name)</Name>"))
        let end = try #require(text.range(of: "</Blob>", range: start.upperBound..<text.endIndex))
        return String(text[start.lowerBound..<end.upperBound])
    }

    @Test("Azure's recorded reply reads as one blob with only staged blocks and one with content")
    func readsRecordedReply() throws {
        let page = try BlobListingXML.readBlobs(AzureFixture.bytes(Self.fixture), account: "storagename")
        #expect(page.nextMarker == nil)
        #expect(page.blobs.count == 2)
        #expect(page.blobs.first == .uncommitted(name: "blob1"))
        let blob2 = try #require(page.blobs.last)
        #expect(blob2.isCommitted)
        #expect(blob2.name == "blob2")
        #expect(blob2.size == 11)
        #expect(blob2.etag == "\"0x8D759751A31AAC9\"")
        #expect(blob2.contentMD5 == "XrY7u+Ae7tCTyyK7j1rNww==")
    }

    @Test("a blob with only staged blocks is written as Azure lists one, and reads back so")
    func writesAzureShape() throws {
        let committed = BlobProperties(
            name: "blob2",
            contentType: "application/octet-stream",
            contentMD5: "XrY7u+Ae7tCTyyK7j1rNww==",
            size: 11,
            etag: "\"0x8D759751A31AAC9\"",
            lastModified: time("2019-10-25T17:59:38Z")
        )
        for includeMetadata in [false, true] {
            let body = BlobListingXML.blobs(
                [.blob(.uncommitted(name: "blob1")), .blob(committed)],
                container: "containerf3fe18d5",
                nextMarker: nil,
                request: BlobListingXML.Request(),
                serviceEndpoint: "https://storagename.blob.core.windows.net/",
                includeMetadata: includeMetadata,
                httpDate: HTTPDate.format
            )
            let text = String(decoding: body, as: UTF8.self)
            var expected = try Self.recordedBlob("blob1")
            if includeMetadata {
                expected = expected.replacing("</Properties>", with: "</Properties><Metadata></Metadata>")
            }
            #expect(text.contains(expected), "\(text)")
            let page = try BlobListingXML.readBlobs(body, account: "storagename")
            #expect(page.blobs == [.uncommitted(name: "blob1"), committed])
        }
    }

    @Test("a listed blob with content but no Last-Modified or Etag is unreadable, not taken as staged")
    func contentWithoutTimesIsRefused() {
        let body = """
            <EnumerationResults><Blobs><Blob><Name>x</Name><Properties><Content-Length>5</Content-Length>\
            </Properties></Blob></Blobs><NextMarker /></EnumerationResults>
            """
        #expect(throws: StorageError.self) { try BlobListingXML.readBlobs(Array(body.utf8), account: "a") }
    }
}
