import SpeakEasyData
import TestSupport
import Testing

/// What the formatter writes, and what it refuses.
@Suite("Atom formatter")
struct AtomFormatterTests {
    static let event = Entity(
        partitionKey: "Events",
        rowKey: "0f8fad5b-d9cb-469f-a165-70867728950e",
        timestamp: .at("2024-05-01T10:00:00.5Z"),
        etag: #"W/"datetime'2024-05-01T10%3A00%3A00.5Z'""#,
        properties: [
            Property("EventDate", .dateTime(.at("2026-03-01T09:30:00Z"))), Property("EventName", .string("iOS Meetup")),
            Property("Seats", .int32(40)), Property("Ratio", .double(.nan)),
            Property("Text", .string("a\r\nb <&> \"q\"")),
        ]
    )

    /// A time of writing with a fraction, which `<updated>` leaves out as Azure does.
    static let written = EdmDateTime.at("2026-11-23T09:41:07.9876543Z")

    @Test("a feed as the service writes one, deterministic to the byte for a given time of writing")
    func shape() throws {
        let text = String(
            decoding: try Atom.write(
                [Self.event],
                options: .init(table: "events", account: "speakeasy", updated: Self.written)
            ),
            as: UTF8.self
        )
        let expected = """
            <?xml version="1.0" encoding="utf-8" standalone="yes"?>
            <feed xml:base="http://127.0.0.1:10002/speakeasy/" xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">
              <title type="text">events</title>
              <id>http://127.0.0.1:10002/speakeasy/events</id>
              <updated>2026-11-23T09:41:07Z</updated>
              <link rel="self" title="events" href="events"/>
              <entry m:etag="W/&quot;datetime'2024-05-01T10%3A00%3A00.5Z'&quot;">
                <id>http://127.0.0.1:10002/speakeasy/events(PartitionKey='Events',RowKey='0f8fad5b-d9cb-469f-a165-70867728950e')</id>
                <title type="text"/>
                <updated>2026-11-23T09:41:07Z</updated>
                <author>
                  <name/>
                </author>
                <link rel="edit" title="events" href="events(PartitionKey='Events',RowKey='0f8fad5b-d9cb-469f-a165-70867728950e')"/>
                <category term="speakeasy.events" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"/>
                <content type="application/xml">
                  <m:properties>
                    <d:PartitionKey>Events</d:PartitionKey>
                    <d:RowKey>0f8fad5b-d9cb-469f-a165-70867728950e</d:RowKey>
                    <d:Timestamp m:type="Edm.DateTime">2024-05-01T10:00:00.5000000Z</d:Timestamp>
                    <d:EventDate m:type="Edm.DateTime">2026-03-01T09:30:00.0000000Z</d:EventDate>
                    <d:EventName>iOS Meetup</d:EventName>
                    <d:Seats m:type="Edm.Int32">40</d:Seats>
                    <d:Ratio m:type="Edm.Double">NaN</d:Ratio>
                    <d:Text>a&#13;
            b &lt;&amp;&gt; &quot;q&quot;</d:Text>
                  </m:properties>
                </content>
              </entry>
            </feed>

            """
        #expect(text == expected)
        #expect(
            try Atom.write([Self.event], options: .init(updated: Self.written))
                == Atom.write([Self.event], options: .init(updated: Self.written))
        )
    }

    @Test("by default <updated> is the time of writing, in whole seconds, in the feed and every entry")
    func updatedNow() throws {
        let before = EdmDateTime.now()
        let text = String(decoding: try Atom.write([Self.event, Self.event.content]), as: UTF8.self)
        let after = EdmDateTime.now()
        let updated = text.split(separator: "<updated>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        #expect(updated.count == 3)
        for text in updated {
            let date = try EdmDateTime(parsing: text)
            #expect(text.count == 20 && text.hasSuffix("Z"), "\(text)")
            #expect(date.ticks > before.ticks - EdmDateTime.ticksPerSecond && date <= after, "\(text)")
        }
    }

    @Test("begin, each append and end each add whole pieces to the caller's buffer")
    func pieces() throws {
        var formatter = AtomFormatter(options: .init(indent: false))
        var head: [UInt8] = []
        var entry: [UInt8] = []
        var tail: [UInt8] = []
        formatter.begin(into: &head)
        try formatter.append(Self.event, into: &entry)
        formatter.end(into: &tail)
        #expect(String(decoding: entry, as: UTF8.self).hasPrefix("<entry "))
        #expect(String(decoding: entry, as: UTF8.self).hasSuffix("</entry>"))
        #expect(String(decoding: tail, as: UTF8.self).hasPrefix("</feed>"))
        #expect(try Atom.read(head + entry + tail) == [Self.event])
    }

    @Test(
        "control characters are refused, naming entity and property, and nothing is appended",
        arguments: ["\u{0}", "\u{1}", "a\u{1B}b", "\u{FFFE}", "\u{FFFF}"]
            // Long text is scanned eight bytes at a time: one in each position of a word, and in the tail.
            + (0..<17).map { String(repeating: "x", count: 40 + $0) + "\u{1F}" + String(repeating: "y", count: 9) }
            + ["\t\n\r\u{FF01}\u{F000}" + String(repeating: "z", count: 30) + "\u{FFFF}"]
    )
    func controlCharacters(_ text: String) throws {
        var formatter = AtomFormatter()
        var out: [UInt8] = []
        formatter.begin(into: &out)
        let before = out
        let error = #expect(throws: FormatError.self) {
            try formatter.append(
                Entity(partitionKey: "p", rowKey: "r", properties: [Property("Bad", .string(text))]),
                into: &out
            )
        }
        #expect(error?.keys?.partitionKey == "p" && error?.keys?.rowKey == "r")
        #expect(error?.reason.contains("property Bad contains U+") == true, "\(String(describing: error))")
        #expect(out == before)
        // The formatter is still usable: the next entity and the end make a valid feed.
        try formatter.append(Entity(partitionKey: "p", rowKey: "ok"), into: &out)
        formatter.end(into: &out)
        #expect(try Atom.read(out) == [Entity(partitionKey: "p", rowKey: "ok")])
    }

    @Test(
        "long text with tabs, line breaks and other characters of U+F000...U+FFFD is written and read back",
        arguments: (0..<9).map { String(repeating: "x", count: 32 + $0) + "\t\r\n\u{FF01}\u{FFFD}\u{F8FF}" }
    )
    func allowedCharactersInLongText(_ text: String) throws {
        let entity = Entity(partitionKey: "p", rowKey: "r", properties: [Property("Text", .string(text))])
        #expect(try Atom.read(Atom.write([entity])) == [entity])
    }

    @Test("a control character in a key is refused too")
    func controlInKey() {
        #expect(throws: FormatError.self) { try Atom.write([Entity(partitionKey: "p\u{7}", rowKey: "r")]) }
    }

    @Test(
        "property names that are not XML names, or that collide with the entity's own, are refused",
        arguments: ["", "1st", "has space", "a:b", "x<y", "PartitionKey", "RowKey", "Timestamp"]
    )
    func badNames(_ name: String) {
        let error = #expect(throws: FormatError.self) {
            try Atom.write([Entity(partitionKey: "p", rowKey: "r", properties: [Property(name, .int32(1))])])
        }
        #expect(error?.reason.contains(name) == true)
    }

    @Test("names XML allows are written: underscores, dots, hyphens, non-ASCII letters")
    func goodNames() throws {
        let entity = Entity(
            partitionKey: "p",
            rowKey: "r",
            properties: ["_a", "a.b-c", "Größe", "名前"].map { Property($0, .boolean(true)) }
        )
        #expect(try Atom.read(Atom.write([entity])) == [entity])
    }

    @Test("key literals double quotes and percent-encode what a URL cannot hold")
    func keyLiteral() throws {
        let text = String(decoding: try Atom.write([Entity(partitionKey: "it's", rowKey: "a b/ü")]), as: UTF8.self)
        #expect(text.contains("events(PartitionKey='it''s',RowKey='a%20b%2F%C3%BC')"))
    }
}
