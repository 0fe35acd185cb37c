import SpeakEasyData
import Testing

@Suite("Table Atom bodies for the legacy client")
struct TableAtomWriterTests {
    static let recorded = TableEndpoint(url: "https://ciserversdk.table.core.windows.net", account: "ciserversdk")
    let writer = TableAtomWriter(endpoint: recorded, updated: time("2013-03-27T11:02:30Z"))

    @Test("a feed of the recorded entities has the recorded feed's shape and reads back to them")
    func feedMatchesFixture() throws {
        let recorded = try Atom.read(try AzureFixture.bytes("table-atom-query-entities-feed.xml"))
        #expect(recorded.count == 2)
        var withoutETags = recorded
        for index in withoutETags.indices { withoutETags[index].etag = nil }
        let feed = try writer.feed(withoutETags, table: "tabledatatype7")
        #expect(try Atom.read(feed) == recorded)
        let text = String(decoding: feed, as: UTF8.self)
        for piece in [
            #"xml:base="https://ciserversdk.table.core.windows.net/""#, #"<title type="text">tabledatatype7</title>"#,
            "<id>https://ciserversdk.table.core.windows.net/tabledatatype7</id>",
            "<updated>2013-03-27T11:02:30Z</updated>",
            #"<link rel="self" title="tabledatatype7" href="tabledatatype7"/>"#,
            #"<category term="ciserversdk.tabledatatype7""#,
            #"m:etag="W/&quot;datetime'2013-03-27T11%3A02%3A28.1691983Z'&quot;""#,
        ] {
            #expect(text.contains(piece), "\(piece)")
        }
    }

    @Test("one entity is a root entry with the namespaces, xml:base and its ETag")
    func entry() throws {
        let entity = everyTypeEntity()
        let body = try writer.entry(entity, table: "speakers")
        let text = String(decoding: body, as: UTF8.self)
        #expect(
            text.hasPrefix(
                #"<?xml version="1.0" encoding="utf-8" standalone="yes"?><entry xml:base="https://ciserversdk.table.core.windows.net/""#
            )
        )
        #expect(text.contains(#"m:etag="W/&quot;datetime'2024-05-01T10%3A00%3A01.123456Z'&quot;""#))
        let read = try Atom.read(body)
        #expect(read.count == 1)
        #expect(read.first?.content.properties.count == entity.properties.count)
        #expect(read.first?.etag == TableETag.of(entity))
    }

    @Test("the table list and a created table carry TableName, which the create body reader finds")
    func tables() throws {
        let feed = String(decoding: writer.tablesFeed(["speakers", "events"]), as: UTF8.self)
        #expect(feed.ranges(of: "<d:TableName>").count == 2)
        #expect(feed.contains(#"<category term="ciserversdk.Tables""#))
        #expect(
            try TableNameBody.read(writer.tableEntry("speakers"), contentType: "application/atom+xml") == "speakers"
        )
        #expect(try TableNameBody.read(TableNameBody.atom("a<b"), contentType: "application/atom+xml") == "a<b")
        #expect(
            try TableNameBody.read(TableJSONReader.createTableBody("speakers"), contentType: "application/json")
                == "speakers"
        )
        for (body, type) in [
            ("{}", "application/json"), ("<entry/>", "application/atom+xml"), ("", nil), ("{\"TableName\":\"\"}", nil),
        ] {
            #expect(throws: TableServiceError.self) { try TableNameBody.read(Array(body.utf8), contentType: type) }
        }
    }

    @Test("an entity XML cannot hold is refused, not written broken")
    func unwritable() {
        let entity = Entity(partitionKey: "p", rowKey: "r", properties: [Property("S", .string("nul\u{0}"))])
        #expect(throws: FormatError.self) { try writer.feed([entity], table: "t") }
        #expect(throws: FormatError.self) { try writer.entry(entity, table: "t") }
    }

    @Test("an error message quoting a control character still makes well-formed XML")
    func errorWithControlCharacter() {
        let error = TableServiceError.outOfRange("The 'PartitionKey' parameter of value 'a\u{1}b' is out of range.")
        let body = TableErrorBody.write(error, format: .atom, requestID: "r", time: .unixEpoch)
        #expect(!body.contains(1))
        #expect(TableErrorBody.read(body, status: 400)?.code == "OutOfRangeInput")
    }
}
