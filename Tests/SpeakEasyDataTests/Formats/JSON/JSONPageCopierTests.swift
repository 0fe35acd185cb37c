import SpeakEasyData
import Testing

/// A query page copied for the JSON output (``JSONPageCopier``) is byte for byte what decoding the
/// page and formatting its entities writes, with the same keys, or fails with the same error. The
/// judge is the reader and the formatter; the copy must also be taken where it should be, or the
/// equality would hold trivially.
@Suite("JSON page copier")
struct JSONPageCopierTests {
    static let layouts: [JSONFormatter.Layout] = [.feed, .lines]

    /// What the copy must equal: the page decoded, then each entity formatted.
    static func reference(_ body: [UInt8], _ layout: JSONFormatter.Layout) throws -> (String, [String], [String]) {
        let entities = try TableJSONReader.entities(body)
        var formatter = JSONFormatter(layout: layout)
        var out: [UInt8] = []
        for entity in entities { try formatter.append(entity, into: &out) }
        return (String(decoding: out, as: UTF8.self), entities.map(\.partitionKey), entities.map(\.rowKey))
    }

    /// The copy and the reference, required equal; returns how many entities the copy decoded, nil
    /// when both failed.
    @discardableResult
    static func check(
        _ body: [UInt8],
        _ layout: JSONFormatter.Layout,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Int? {
        var copier = JSONPageCopier(formatter: JSONFormatter(layout: layout))
        let expected: Result<(String, [String], [String]), any Error> = Result { try reference(body, layout) }
        let copied = Result { try copier.copy(page: body, decode: TableJSONReader.entities) }
        switch (copied, expected) {
        case (.success(let page), .success(let (text, partitionKeys, rowKeys))):
            #expect(String(decoding: page.bytes, as: UTF8.self) == text, sourceLocation: sourceLocation)
            #expect((0..<page.count).map(page.partitionKey(at:)) == partitionKeys, sourceLocation: sourceLocation)
            #expect((0..<page.count).map(page.rowKey(at:)) == rowKeys, sourceLocation: sourceLocation)
            return page.decoded
        case (.failure(let error), .failure(let expectedError)):
            #expect("\(error)" == "\(expectedError)", sourceLocation: sourceLocation)
            return nil
        default:
            Issue.record("copied \(copied), decoded \(expected)", sourceLocation: sourceLocation)
            return nil
        }
    }

    static func page(_ objects: String...) -> [UInt8] {
        Array(#"{"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#events","value":["#.utf8)
            + Array(objects.joined(separator: ",").utf8) + Array("]}".utf8)
    }

    static let etag = #""odata.etag":"W/\"datetime'2026-03-01T18%3A30%3A05.1Z'\"""#
    static let keys = #""PartitionKey":"Events","RowKey":"0f6c"#

    /// Events as Azure sends them: dates trimmed (one on a whole second), escapes, raw UTF-8.
    static let events = page(
        "{\(etag),\(keys)1\",\"Timestamp\":\"2026-03-01T18:30:05.1Z\",\"EventDate@odata.type\":\"Edm.DateTime\","
            + #""EventDate":"2026-03-01T18:30:00Z","EventName":"Swift \"Night\"","EventLocation":"Zürich\n\u00e9\/","#
            + #""EventDescription":"","SpeakerName":"Ada \u2028 \ud83d\ude00 \t"}"#,
        "{\(etag),\(keys)2\",\"Timestamp\":\"2026-03-01T18:30:05Z\",\"EventName\":\"x\"}",
        "{\(keys)3\"}",
        "{\(keys)4\",\"\":\"an empty name\",\"Timestamp2\":\"2026-03-01T18:30:05Z\"}",
        #"{ "PartitionKey" : "p" , "RowKey":"r" , "City":"Zürich" }"#,
        // Runs of plain properties broken by spaces, an escape, non-ASCII text and a date.
        #"{"PartitionKey":"p","RowKey":"r","A":"1","B":"2" ,"C" :"3","D": "4","E":"5","F":"\n","G":"é","#
            + #""H":"8","W@odata.type":"Edm.DateTime","W":"2026-03-01T18:30:05Z","I":"9","J":"10"}"#
    )

    @Test("events as Azure sends them are copied, not decoded, and equal the formatter's bytes", arguments: layouts)
    func eventsCopied(layout: JSONFormatter.Layout) throws {
        #expect(try Self.check(Self.events, layout) == 0)
        #expect(try Self.check(Self.page(), layout) == 0)
    }

    @Test(
        "a page written by the wire writer (serve's) is copied for every DateTime, escape and text",
        arguments: layouts
    )
    func writtenPagesCopied(layout: JSONFormatter.Layout) throws {
        let strings = [
            "", "plain", "quote \" back \\ slash", "line\nbreak\r\ttab", "\u{1}\u{1F}\u{7F}", "é😀", "\u{2028}",
        ]
        let times = [
            "2026-03-01T18:30:00.0000000Z", "0001-01-01T00:00:00.0000000Z", "9999-12-31T23:59:59.9999999Z",
            "2026-03-01T18:30:00.1200000Z",
        ]
        var entities: [Entity] = []
        for (index, text) in strings.enumerated() {
            var entity = Entity(
                partitionKey: text,
                rowKey: "\(index)\(text)",
                timestamp: time(times[index % times.count])
            )
            entity.etag = index.isMultiple(of: 2) ? "W/\"datetime'2026-03-01T18%3A30%3A05Z'\"" : nil
            entity.properties = [
                Property("Text", .string(text)), Property("When", .dateTime(time(times[(index + 1) % times.count]))),
                Property("Also\(index)", .string(text + text)),
            ]
            entities.append(entity)
        }
        let body = TableJSONWriter(endpoint: AzureFixture.xplat, metadata: .minimal).queryResponse(entities, table: "t")
        #expect(try Self.check(body, layout) == 0, "\(String(decoding: body, as: UTF8.self))")
    }

    @Test("the recorded pages of every metadata level equal the decoder's and formatter's bytes", arguments: layouts)
    func recordedPages(layout: JSONFormatter.Layout) throws {
        for fixture in [
            "table-json-query-minimalmetadata.json", "table-json-query-fullmetadata.json",
            "table-json-query-nometadata.json",
        ] {
            let decoded = try Self.check(try AzureFixture.bytes(fixture), layout)
            // Numbers, booleans and other types are the decoder's: every recorded entity has some.
            #expect(decoded == 2, "\(fixture)")
        }
    }

    /// Objects of shapes the copy leaves to the decoder, each one alone in a page and then amid
    /// copied ones.
    static let decodedShapes = [
        #"{"PartitionKey":"p","RowKey":"r","N":1}"#,
        #"{"PartitionKey":"p","RowKey":"r","B":false}"#,
        #"{"PartitionKey":"p","RowKey":"r","Gone":null}"#,
        #"{"PartitionKey":"p","RowKey":"r","Timestamp":null}"#,
        #"{"RowKey":"r","PartitionKey":"p"}"#,
        #"{"PartitionKey":"p","RowKey":"r","D":"2026-03-01T18:30:00Z","D@odata.type":"Edm.DateTime"}"#,
        #"{"PartitionKey":"p","RowKey":"r","D@odata.type":"Edm.DateTimeOffset","D":"2026-03-01T18:30:00Z"}"#,
        #"{"PartitionKey":"p","RowKey":"r","S@odata.type":"Edm.String","S":"x"}"#,
        #"{"@odata.etag":"W/\"x\"","PartitionKey":"p","RowKey":"r"}"#,
        #"{"odata.type":"a.t","PartitionKey":"p","RowKey":"r"}"#,
        #"{"PartitionKey":"p","RowKey":"r","odata.id":"x"}"#,
        #"{"PartitionKey":"p","RowKey":"r","Nam\u0065":"escaped name"}"#,
        #"{"PartitionKey":"p","RowKey":"r","Namé":"non-ASCII name"}"#,
        #"{"PartitionKey":"p","RowKey":"r","PartitionKey@odata.type":"Edm.String"}"#,
        #"{"PartitionKey":"p","RowKey":"r","Timestamp@odata.type":"Edm.DateTime","Timestamp":"2026-03-01T18:30:00Z"}"#,
        #"{"PartitionKey":"p","RowKey":"r","a@b":"ignored"}"#,
    ]

    @Test("objects of other shapes are decoded and formatted alone", arguments: layouts)
    func otherShapesDecoded(layout: JSONFormatter.Layout) throws {
        let copied = #"{"PartitionKey":"p","RowKey":"copied","S":"x"}"#
        for shape in Self.decodedShapes {
            #expect(try Self.check(Self.page(shape), layout) == 1, "\(shape)")
            #expect(try Self.check(Self.page(copied, shape, copied), layout) == 1, "\(shape)")
        }
    }

    /// Pages the reader refuses, or whose entities the formatter refuses: the copy fails the same way.
    static let refused = [
        page(#"{"PartitionKey":"p","RowKey":"r","A":"x","A":"y"}"#),
        page(#"{"PartitionKey":"p","RowKey":"r","D@odata.type":"Edm.DateTime","D":"2026-03-01"}"#),
        page(#"{"PartitionKey":"p","RowKey":"r","Timestamp":"yesterday"}"#),
        page(#"{"PartitionKey":"p","RowKey":"r","D@odata.type":"Edm.DateTime"}"#),
        page(#"{"PartitionKey":"p"}"#),
        page(#"{"PartitionKey":1,"RowKey":"r"}"#),
        page(#"{"PartitionKey":"p","RowKey":"r","S":"x"}"#, #"{"PartitionKey":"p","RowKey":"r","S":"x"#),
        page(#"{"PartitionKey":"p","RowKey":"r","S":"x"}"#) + Array(" trailing".utf8),
        Array(#"{"value":{"PartitionKey":"p","RowKey":"r"}}"#.utf8),
        Array("".utf8),
    ]

    @Test("a page the reader or the formatter refuses fails with the reader's or formatter's error", arguments: layouts)
    func refusedPages(layout: JSONFormatter.Layout) throws {
        for body in Self.refused {
            #expect(try Self.check(body, layout) == nil, "\(String(decoding: body, as: UTF8.self))")
        }
        // Invalid UTF-8 in a plain string, a key and a value.
        try Self.check(
            Self.page(#"{"PartitionKey":"p","RowKey":"r","S":"\#u{FF}"}"#.replacing("ÿ", with: "\u{FF}")),
            layout
        )
        var invalid = Self.page(#"{"PartitionKey":"p","RowKey":"r","S":"xx"}"#)
        invalid[invalid.count - 5] = 0xFF
        try Self.check(invalid, layout)
        invalid = Self.page(#"{"PartitionKey":"pp","RowKey":"r"}"#)
        invalid[invalid.firstIndex(of: UInt8(ascii: "p"))! + 3] = 0xC3
        try Self.check(invalid, layout)
    }

    @Test("other envelopes are read by the reader: no metadata, white space, members after the array")
    func envelopes() throws {
        for body in [
            #"{"value":[{"PartitionKey":"p","RowKey":"r"}]}"#,
            "{\n  \"odata.metadata\" : \"m\",\n  \"value\" : [ {\"PartitionKey\":\"p\",\"RowKey\":\"r\"} ]\n}\n",
            #"{"value":[{"PartitionKey":"p","RowKey":"r"}],"odata.nextLink":"x"}"#,
            #"{"odata.metadata":"m","odata.count":1,"value":[{"PartitionKey":"p","RowKey":"r"}]}"#,
            #"[{"PartitionKey":"p","RowKey":"r"}]"#,
        ] {
            try Self.check(Array(body.utf8), .feed)
        }
    }

    @Test("names next to non-ASCII text are still read as names (the scanner's flag looks ahead)")
    func namesNextToNonASCII() throws {
        let body = #"{"odata.metadata":"é","value":[{"PartitionKey":"é","RowKey":"r","Name":"é"}]}"#
        #expect(try Self.check(Array(body.utf8), .feed) == 0)
    }

    @Test("full metadata is formatted from the decoded entities")
    func fullMetadata() throws {
        var copier = JSONPageCopier(formatter: JSONFormatter(metadata: .full))
        let page = try copier.copy(page: Self.events, decode: TableJSONReader.entities)
        #expect(page.decoded == 6)
        var formatter = JSONFormatter(metadata: .full)
        var out: [UInt8] = []
        for entity in try TableJSONReader.entities(Self.events) { try formatter.append(entity, into: &out) }
        #expect(page.bytes == out)
    }
}
