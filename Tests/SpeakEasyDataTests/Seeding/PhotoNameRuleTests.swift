import SpeakEasyData
import Testing

@Suite("seed --photo-name rules")
struct PhotoNameRuleTests {
    @Test("placeholders are filled from the speaker; a rule needing a Name the speaker lacks gives no file")
    func fileNames() throws {
        let rule = try PhotoNameRule(parsing: "{Name} ({RowKey}).jpg")
        #expect(rule.fileName(blob: "ALovelace.png", name: "Ada Lovelace", rowKey: "k1") == "Ada Lovelace (k1).jpg")
        #expect(rule.fileName(blob: "ALovelace.png", name: nil, rowKey: "k1") == nil)
        #expect(PhotoNameRule.byBlobName.fileName(blob: "ALovelace.png", name: nil, rowKey: "k1") == "ALovelace.png")
    }

    @Test(
        "a rule that cannot name one file per speaker is refused",
        arguments: [
            ("photo.jpg", "has no placeholder"), ("{name}.jpg", "has {name}; the placeholders are"),
            ("{Name.jpg", "without its '}'"),
            ("photos/{blob}", "names a directory"),
        ]
    )
    func refused(_ template: String, _ reason: String) {
        #expect {
            _ = try PhotoNameRule(parsing: template)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }
}
