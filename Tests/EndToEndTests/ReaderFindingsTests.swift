import Foundation
import SpeakEasyData
import Testing

/// What a fuzzer found in the readers, through the built executables: each input is refused with 65
/// and a message naming the file, the line and what is wrong, or read back whole.
@Suite("readers: fuzzer findings, end to end")
struct ReaderFindingsTests {
    struct Finding: Sendable, CustomTestStringConvertible {
        var name: String
        var file: String
        var bytes: [UInt8]
        /// What stderr must hold: `file:line` and the reason.
        var location: String
        var reason: String
        var testDescription: String { name }
    }

    static let atomNamespaces =
        #"xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata""#

    static let findings: [Finding] = [
        Finding(
            name: "a second value array",
            file: "feed.json",
            bytes: Array(
                #"{"value":[{"PartitionKey":"p","RowKey":"1"}],"value":[{"PartitionKey":"p","RowKey":"2"}]}"#.utf8
            ),
            location: "feed.json:1:46",
            reason: "value is given twice"
        ),
        Finding(
            name: "an NDJSON object over two lines",
            file: "events.ndjson",
            bytes: Array(
                "{\"PartitionKey\":\"p\",\"RowKey\":\"1\"}\n{\"PartitionKey\":\"p\",\n\"RowKey\":\"2\"}\n".utf8
            ),
            location: "events.ndjson:2:1",
            reason: "does not end on its line"
        ),
        Finding(
            name: "1e999",
            file: "feed.json",
            bytes: Array(#"{"value":[{"PartitionKey":"p","RowKey":"1","D":1e999}]}"#.utf8),
            location: "feed.json:1:48",
            reason: "out of range"
        ),
        Finding(
            name: "an annotation without its value",
            file: "feed.json",
            bytes: Array(#"{"value":[{"PartitionKey":"p","RowKey":"1","X@odata.type":"Edm.Int64"}]}"#.utf8),
            location: "feed.json:1:44",
            reason: "has no X"
        ),
        Finding(
            name: "a CSV header of 3 million columns",
            file: "wide.csv",
            bytes: Array(("PartitionKey,RowKey," + String(repeating: "c,", count: 3_000_000) + "d\r\np,r\r\n").utf8),
            location: "wide.csv:1:",
            reason: "more than 1024 fields"
        ),
        Finding(
            name: "100,000 attributes",
            file: "wide.atom",
            bytes: Array(
                ("<feed \(atomNamespaces)>\n<entry " + (0..<100_000).map { "a\($0)=\"\"" }.joined(separator: " ")
                    + "/></feed>").utf8
            ),
            location: "wide.atom:2:1",
            reason: "more than 1000 attributes"
        ),
        Finding(
            name: "an entry inside an entry",
            file: "nested.atom",
            bytes: Array("<feed \(atomNamespaces)>\n<entry>\n<entry/></entry></feed>".utf8),
            location: "nested.atom:3",
            reason: "an <entry> inside an <entry>"
        ),
        Finding(
            name: "a padded Int32 in Atom",
            file: "padded.atom",
            bytes: Array(
                "<feed \(atomNamespaces)>\n<entry><content><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n<d:N m:type=\"Edm.Int32\"> 5 </d:N></m:properties></content></entry></feed>"
                    .utf8
            ),
            location: "padded.atom:3",
            reason: "' 5 ' is not a valid Edm.Int32"
        ),
        Finding(
            name: "bytes that are not ISO-2022-JP",
            file: "encoded.atom",
            bytes: Array("<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?>\n<feed \(atomNamespaces)>\n<entry>".utf8) + [
                0xFF, 0xFE, 0x80,
            ]
                + Array(" x</entry></feed>\n".utf8),
            location: "encoded.atom:3",
            reason: "not valid in the document's declared encoding"
        ),
    ]

    @Test("is refused with 65 and one line on stderr naming file, line and reason", arguments: findings)
    func refused(_ finding: Finding) async throws {
        let scratch = try Scratch()
        try Data(finding.bytes).write(to: URL(fileURLWithPath: scratch.file(finding.file)))
        let result = try await BuiltTool.export.run([finding.file, "--to", "out.json"], in: scratch.path)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains(finding.location), "\(result)")
        #expect(result.stderr.contains(finding.reason), "\(result)")
        #expect(
            result.stderr.split(separator: "\n").count == 1,
            "only our own message, nothing libxml2 printed: \(result)"
        )
        #expect(!fileExists(scratch.file("out.json")))
    }

    @Test("typed CSV with a delimiter that is in the type names reads back whole (--delimiter a)")
    func typedDelimiterInTypeNames() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let written = try await BuiltTool.export.run(
            ["--store", store, "--typed", "--delimiter", "a", "--to", "all.csv"],
            in: scratch.path
        )
        #expect(written.status == 0, "\(written)")
        let back = try await BuiltTool.export.run(
            ["all.csv", "--delimiter", "a", "--to", "all.json"],
            in: scratch.path
        )
        #expect(back.status == 0, "\(back)")
        let direct = try await BuiltTool.export.run(["--store", store, "--to", "direct.json"], in: scratch.path)
        #expect(direct.status == 0, "\(direct)")
        let entities = try ExportTests.entities(in: scratch.file("all.json"))
        #expect(entities.count > 100)
        #expect(
            entities
                == (try ExportTests.entities(in: scratch.file("direct.json"))).map {
                    Entity(
                        partitionKey: $0.partitionKey,
                        rowKey: $0.rowKey,
                        timestamp: $0.timestamp,
                        properties: $0.properties
                    )
                }
        )
    }
}
