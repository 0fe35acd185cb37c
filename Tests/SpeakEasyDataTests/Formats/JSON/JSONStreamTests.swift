import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// Reads every entity of a JSON/NDJSON input through the streaming reader.
func readJSON(
    _ text: String,
    layout: JSONEntityStreamReader.Layout = .document,
    chunkSize: Int = 1 << 20,
    name: String = "test.json"
) throws(FormatError) -> [Entity] {
    var reader = JSONEntityStreamReader(
        input: ByteInput(name: name, bytes: Array(text.utf8)),
        layout: layout,
        chunkSize: chunkSize
    )
    var entities: [Entity] = []
    while let entity = try reader.next() { entities.append(entity) }
    return entities
}

func formatJSON(_ entities: [Entity], _ formatter: JSONFormatter) throws -> String {
    var formatter = formatter
    var out: [UInt8] = []
    formatter.begin(into: &out)
    for entity in entities { try formatter.append(entity, into: &out) }
    formatter.end(into: &out)
    return String(decoding: out, as: UTF8.self)
}

@Suite("JSON feeds and NDJSON, streamed")
struct JSONStreamTests {
    static let fixtures = TestPaths.azureFixtures

    static let sample = Entity(
        partitionKey: "Events",
        rowKey: "it's a \"key\" with spaces",
        timestamp: .at("2026-01-02T03:04:05.1234567Z"),
        etag: "W/\"datetime'2026-01-02T03%3A04%3A05.1234567Z'\"",
        properties: SampleProperties.everyType
    )

    @Test("the recorded feeds at every metadata level read to the same entities, values and types")
    func recordedFeeds() throws {
        var read: [JSONMetadata: [Entity]] = [:]
        for level in JSONMetadata.allCases {
            let text = try String(
                decoding: readFile(
                    Self.fixtures
                        + "/table-json-query-\(level == .none ? "nometadata" : level == .minimal ? "minimalmetadata" : "fullmetadata").json"
                ),
                as: UTF8.self
            )
            read[level] = try readJSON(text)
        }
        let minimal = try #require(read[.minimal])
        #expect(minimal.map(\.rowKey) == ["row1", "row2"])
        let row1 = minimal[0]
        #expect(row1.partitionKey == "partition1")
        #expect(row1.timestamp == .at("2017-01-05T03:26:13.2794066Z"))
        #expect(row1.etag == "W/\"datetime'2017-01-05T03%3A26%3A13.2794066Z'\"")
        #expect(
            row1.properties == [
                Property("StringProperty", .string("stringSample")),
                Property("BooleanProperty", .boolean(true)),
                Property("BinaryProperty", .binary(Array("SampleStringInBuffer!".utf8))),
                Property("Int32Property", .int32(42)),
                Property("Int64Property", .int64(5_432_873_627_392)),
                Property("DoubleProperty", .double(4.81516)),
                Property("GuidProperty", .guid(.literal("dd3cb8f8-93b7-44e2-b74a-c0aa3b27a6d2"))),
                Property("DateTimeProperty", .dateTime(.at("2014-05-07T08:20:53Z"))),
            ]
        )
        let full = try #require(read[.full])
        #expect(full.map(\.content.properties) == minimal.map(\.content.properties))
        #expect(full[1].timestamp == .at("2017-01-05T03:26:03.516682Z"))
        // No metadata loses the types JSON cannot tell: Int64, Binary, Guid and DateTime read as strings.
        let none = try #require(read[.none])
        #expect(none[0]["Int64Property"] == .string("5432873627392"))
        #expect(none[0]["GuidProperty"] == .string("dd3cb8f8-93b7-44e2-b74a-c0aa3b27a6d2"))
        #expect(none[0]["Int32Property"] == .int32(42))
        #expect(none[0].etag == nil)
    }

    @Test(
        "writing the recorded entities gives the service's bytes, dates apart (we always write 7 digits)",
        arguments: JSONMetadata.allCases
    )
    func writesAsTheServiceWrites(level: JSONMetadata) throws {
        let name = level == .none ? "nometadata" : level == .minimal ? "minimalmetadata" : "fullmetadata"
        let recorded = try String(decoding: readFile(Self.fixtures + "/table-json-query-\(name).json"), as: UTF8.self)
        let table =
            level == .none ? "" : level == .minimal ? "tablepayloadteststestdata41" : "tablepayloadteststestdata31"
        let entities = try readJSON(recorded)
        let written = try formatJSON(
            entities,
            JSONFormatter(
                metadata: level,
                table: table,
                serviceURL: "https://xplat.table.core.windows.net/",
                accountName: "xplat"
            )
        )
        // Azure trims fractional zeros; we always write 7 digits. Normalise the recorded dates likewise.
        let datePattern = try NSRegularExpression(pattern: #"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#)
        var expected = recorded
        for match in datePattern.matches(in: recorded, range: NSRange(recorded.startIndex..., in: recorded)).reversed()
        {
            let range = Range(match.range, in: recorded)!
            // Without metadata a DateTime property is only a string, and stays as written.
            if level == .none, !recorded[..<range.lowerBound].hasSuffix("\"Timestamp\":\"") { continue }
            expected.replaceSubrange(range, with: try EdmDateTime(parsing: recorded[range]).description)
        }
        #expect(
            written.trimmingCharacters(in: .whitespacesAndNewlines)
                == expected.trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    @Test(
        "every Edm type and awkward keys survive feed, NDJSON and single-entity forms",
        arguments: JSONMetadata.allCases.filter { $0 != .none }
    )
    func roundTrip(level: JSONMetadata) throws {
        let big = Entity(
            partitionKey: "speakers",
            rowKey: "big",
            properties: [Property("Bio", .string(String(repeating: "é𝄞<&>\"\n", count: 64 << 10 / 10)))]
        )
        let entities = [Self.sample, big, Entity(partitionKey: "", rowKey: "")]
        for layout in [JSONFormatter.Layout.feed, .lines] {
            let text = try formatJSON(entities, JSONFormatter(metadata: level, layout: layout))
            for chunk in [7, 1 << 20] {
                #expect(try readJSON(text, layout: layout == .feed ? .document : .lines, chunkSize: chunk) == entities)
            }
        }
        var single = try formatJSON([Self.sample], JSONFormatter(metadata: level, layout: .lines))
        single = "  \n" + single + "\n\n"
        #expect(try readJSON(single) == [Self.sample])
    }

    @Test("lenient reading: members in any order, v4 spellings, nulls, a top-level array, a BOM")
    func lenient() throws {
        let text = """
            \u{FEFF}[ {"Count@odata.type":"#Int64","Count":"9007199254740993","RowKey":"r","@odata.etag":"e","Gone":null,
              "When":"2026-01-01T00:00:00.5Z","When@odata.type":"Edm.DateTimeOffset","PartitionKey":"p","Ten":10.0},
              {"PartitionKey":"p","RowKey":"s"} ]
            """
        let entities = try readJSON(text)
        #expect(entities.count == 2)
        #expect(entities[0].etag == "e")
        #expect(
            entities[0].properties == [
                Property("Count", .int64(9_007_199_254_740_993)),
                Property("When", .dateTime(.at("2026-01-01T00:00:00.5Z"))), Property("Ten", .double(10)),
            ]
        )
    }

    @Test("the envelope's other members may come before or after the value array")
    func envelopeMembers() throws {
        let text =
            #"{"odata.metadata":"x","extra":{"a":[1,{"b":"]}"}]},"value":[{"PartitionKey":"p","RowKey":"1"}],"after":"y"}"#
        #expect(try readJSON(text).map(\.rowKey) == ["1"])
        #expect(try readJSON(#"{"value":[]}"#).isEmpty)
    }

    struct Bad: CustomTestStringConvertible, Sendable {
        var text: String
        var layout: JSONEntityStreamReader.Layout = .document
        var line: Int
        var column: Int
        var mentions: String
        var testDescription: String { mentions }
    }

    @Test(
        "malformed input names line and column",
        arguments: [
            Bad(
                text: #"{"value":[{"PartitionKey":"p","RowKey":"1"},"#,
                line: 1,
                column: 45,
                mentions: "unexpected end"
            ),
            Bad(
                text: "{\"value\":[\n{\"PartitionKey\":\"p\",\"RowKey\":\"1\"}\n{\"PartitionKey\":\"p\"}]}",
                line: 3,
                column: 1,
                mentions: "expected ',' or ']'"
            ),
            Bad(
                text:
                    "{\"value\":[\n  {\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"N@odata.type\":\"Edm.Int64\",\"N\":\"x\"}]}",
                line: 2,
                column: 67,
                mentions: "Edm.Int64"
            ),
            Bad(
                text: "{\"value\":[{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"T\":\"unterminated}]}",
                line: 1,
                column: 48,
                mentions: "unterminated string"
            ),
            Bad(
                text: "{\"PartitionKey\":\"p\",\"RowKey\":\"1\"} trailing",
                line: 1,
                column: 35,
                mentions: "after the end"
            ),
            Bad(
                text: "{\"PartitionKey\":\"p\"}\n{\"RowKey\":\"x\"}\n",
                layout: .lines,
                line: 1,
                column: 1,
                mentions: "no RowKey"
            ),
            Bad(
                text: "{\"PartitionKey\":\"p\",\"RowKey\":\"1\"}\n[1]\n",
                layout: .lines,
                line: 2,
                column: 1,
                mentions: "expected an entity object"
            ),
            Bad(
                text:
                    "{\"value\":[{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"N@odata.type\":\"Edm.Nope\",\"N\":\"1\"}]}",
                line: 1,
                column: 59,
                mentions: "names no Edm type"
            ),
            Bad(
                text: "{\"value\":[{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"S\":\"\u{7}\"}]}",
                line: 1,
                column: 49,
                mentions: "control character"
            ),
            Bad(text: "", line: 1, column: 1, mentions: "empty"),
            // Fuzzer findings: a second envelope member of the same name was skipped unseen.
            Bad(
                text: #"{"value":[{"PartitionKey":"p","RowKey":"1"}],"value":[{"PartitionKey":"p","RowKey":"2"}]}"#,
                line: 1,
                column: 46,
                mentions: "value is given twice"
            ),
            Bad(
                text: #"{"value":[{"PartitionKey":"p","RowKey":"1"}],"value":5}"#,
                line: 1,
                column: 46,
                mentions: "value is given twice"
            ),
            Bad(
                text: #"{"value":[{"PartitionKey":"p","RowKey":"1"}],"valu\u0065":[]}"#,
                line: 1,
                column: 46,
                mentions: "value is given twice"
            ),
            Bad(
                text: #"{"odata.metadata":"m","value":5,"value":[]}"#,
                line: 1,
                column: 33,
                mentions: "value is given twice"
            ),
            Bad(
                text: #"{"odata.metadata":"m","odata.metadata":"n","value":[]}"#,
                line: 1,
                column: 23,
                mentions: "odata.metadata is given twice"
            ),
            // A type annotation whose property is missing was dropped silently.
            Bad(
                text: #"{"value":[{"PartitionKey":"p","RowKey":"1","X@odata.type":"Edm.Int64"}]}"#,
                line: 1,
                column: 44,
                mentions: "has no X"
            ),
            // 1e999 is a JSON number, but no finite Edm.Double: it became Infinity.
            Bad(
                text: #"{"value":[{"PartitionKey":"p","RowKey":"1","D":1e999}]}"#,
                line: 1,
                column: 48,
                mentions: "out of range"
            ),
            Bad(
                text: #"{"value":[{"PartitionKey":"p","RowKey":"1","D@odata.type":"Edm.Double","D":"-1e999"}]}"#,
                line: 1,
                column: 76,
                mentions: "out of range"
            ),
            Bad(
                text: #"{"value":[{"PartitionKey":"p","RowKey":"1","N":99999999999999999999}]}"#,
                line: 1,
                column: 48,
                mentions: "out of range"
            ),
            // NDJSON is one object a line: an object that goes on past its line is refused at its start.
            Bad(
                text: "{\"PartitionKey\":\"p\",\n\"RowKey\":\"1\"}\n",
                layout: .lines,
                line: 1,
                column: 1,
                mentions: "does not end on its line"
            ),
            Bad(
                text: "{\"PartitionKey\":\"p\",\n{\"RowKey\":\"1\"}\n",
                layout: .lines,
                line: 1,
                column: 1,
                mentions: "does not end on its line"
            ),
            Bad(
                text: "{\"PartitionKey\":\"p\",\n\n",
                layout: .lines,
                line: 1,
                column: 1,
                mentions: "does not end on its line"
            ),
            Bad(text: "{\"PartitionKey\":\"p\",", layout: .lines, line: 1, column: 1, mentions: "unterminated"),
            Bad(
                text: #"{"PartitionKey":"p","RowKey":"1"} {"PartitionKey":"p","RowKey":"2"}"#,
                layout: .lines,
                line: 1,
                column: 35,
                mentions: "one object a line"
            ),
        ]
    )
    func malformed(bad: Bad) throws {
        let error = #expect(throws: FormatError.self) { try readJSON(bad.text, layout: bad.layout, chunkSize: 5) }
        #expect(error?.kind == .malformedInput)
        #expect(error?.source == "test.json")
        #expect(error?.line == bad.line, "\(String(describing: error))")
        #expect(error?.column == bad.column, "\(String(describing: error))")
        #expect(error?.reason.contains(bad.mentions) == true, "\(String(describing: error))")
    }

    @Test("an annotation without its property among 100,000 is found in linear time, and named")
    func annotationWithoutPropertyAmongMany() throws {
        // Searching all names for each annotation took minutes here (a stress run's finding).
        let members = (0..<100_000).map {
            $0 == 77_777
                ? #""P\#($0)@odata.type":"Edm.Int64","Q\#($0)":"1""#
                : #""P\#($0)@odata.type":"Edm.Int64","P\#($0)":"1""#
        }
        let text = #"{"value":[{"PartitionKey":"p","RowKey":"r","# + members.joined(separator: ",") + "}]}"
        let error = #expect(throws: FormatError.self) { try readJSON(text) }
        #expect(
            error?.reason.contains("P77777@odata.type gives the type of P77777, but the object has no P77777") == true,
            "\(String(describing: error))"
        )
    }

    @Test("invalid UTF-8 inside a string is an error at its place")
    func invalidUTF8() throws {
        var bytes = Array(#"{"value":[{"PartitionKey":"p","RowKey":"1","S":"ab"#.utf8)
        bytes += [0xC3, 0x28] + Array("\"}]}".utf8)
        var reader = JSONEntityStreamReader(input: ByteInput(name: "bad.json", bytes: bytes))
        let error = #expect(throws: FormatError.self) { try reader.next() }
        #expect(error?.reason.contains("UTF-8") == true)
        #expect(error?.line == 1)
    }

    @Test("an object beyond the size limit is refused, not buffered")
    func hugeObject() throws {
        let huge =
            "{\"value\":[{\"PartitionKey\":\"p\",\"RowKey\":\"1\",\"S\":\""
            + String(repeating: "a", count: JSONEntityStreamReader.maximumObjectSize + 1) + "\"}]}"
        let error = #expect(throws: FormatError.self) { try readJSON(huge) }
        #expect(error?.reason.contains("MiB") == true)
    }
}
