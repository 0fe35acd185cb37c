import SpeakEasyData
import Testing

@Suite("Blob protocol: block lists")
struct BlockListXMLTests {
    @Test("a block list reads back as written, and as the SDKs send it")
    func roundTrip() throws {
        let blocks = [
            BlockReference(id: "YmxvY2stMDAwMDAw", source: .latest), .init(id: "QQ==", source: .committed),
            .init(id: "Qg==", source: .uncommitted),
        ]
        #expect(try BlockListXML.read(BlockListXML.write(blocks)) == blocks)
        // azure-storage-blob 12.31.1 sends this (with a BOM-less declaration and no whitespace).
        let sent =
            #"<?xml version='1.0' encoding='utf-8'?>\#n<BlockList><Latest>MDAwMDA=</Latest><Latest>MDAwMDE=</Latest></BlockList>"#
        #expect(try BlockListXML.read(Array(sent.utf8)).map(\.id) == ["MDAwMDA=", "MDAwMDE="])
    }

    @Test(
        "malformed or foreign XML is 400 InvalidXmlDocument",
        arguments: [
            "", "<BlockList><Latest>a</Latest>", "<Other/>", "<BlockList><Newest>a</Newest></BlockList>", "not xml",
            #"<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><BlockList><Latest>&e;</Latest></BlockList>"#,
        ]
    )
    func malformed(body: String) {
        do {
            let blocks = try BlockListXML.read(Array(body.utf8))
            // An external entity is never loaded: at most its reference survives, empty.
            #expect(blocks.allSatisfy { !$0.id.contains("root") }, "\(blocks)")
        } catch {
            #expect(error.code == "InvalidXmlDocument")
        }
    }

    @Test("invalid UTF-8 is refused")
    func invalidUTF8() {
        #expect(throws: BlobServiceError.self) {
            try BlockListXML.read(
                Array("<BlockList><Latest>".utf8) + [0xFF, 0xFE] + Array("</Latest></BlockList>".utf8)
            )
        }
    }
}
