import SpeakEasyData
import TestSupport
import Testing

/// Entity → Atom → Entity keeps every value and type exactly.
@Suite("Atom round trips")
struct AtomRoundTripTests {
    static func roundTrip(_ entities: [Entity], chunkSize: Int = 256 << 10) throws -> [Entity] {
        try Atom.read(Atom.write(entities), chunkSize: chunkSize)
    }

    @Test("every Edm type with its extremes, Timestamp and ETag")
    func everyType() throws {
        let entity = Entity(
            partitionKey: "Events",
            rowKey: "c9da6455-213d-42c9-9a79-3e9149a57833",
            timestamp: .at("2024-05-01T10:00:00.1234567Z"),
            etag: #"W/"datetime'2024-05-01T10%3A00%3A00.1234567Z'""#,
            properties: SampleProperties.everyType
        )
        let back = try Self.roundTrip([entity])
        #expect(back == [entity])
        // Equality compares doubles by bit pattern; say so for the ones that matter most.
        #expect(back.first?["DoubleNegativeZero"] == .double(-0.0))
        #expect(back.first?["DoubleNaN"] == .double(.nan))
    }

    @Test("the hard doubles: NaN, ±Infinity, -0.0, 4.94065645841247E-324, 1.7976931348623157E+308, 10.0")
    func doubles() throws {
        let values: [Double] = [
            .nan, .infinity, -.infinity, -0.0, 0.0, .leastNonzeroMagnitude,  // 4.94065645841247E-324
            1.7976931348623157E+308, 10.0, 0.1, -2.5e-10,
        ]
        let entity = Entity(
            partitionKey: "p",
            rowKey: "r",
            properties: values.enumerated().map { Property("D\($0.offset)", .double($0.element)) }
        )
        #expect(try Self.roundTrip([entity]) == [entity])
    }

    @Test("DateTime with 0 to 7 fractional digits keeps its ticks", arguments: 0...7)
    func dateTimeDigits(digits: Int) throws {
        let text = "2012-11-10T03:04:05" + (digits == 0 ? "" : "." + String("1234567".prefix(digits))) + "Z"
        let atom = Atom.feed(properties: #"<d:When m:type="Edm.DateTime">\#(text)</d:When>"#)
        let read = try Atom.read(atom)
        #expect(read.first?["When"] == .dateTime(.at(text)))
        #expect(try Self.roundTrip(read) == read)
    }

    @Test("strings: empty, outside the BMP, XML specials, ]]>, newlines and CR, tabs, 64 KiB")
    func strings() throws {
        let values = [
            "", " ", "  leading and trailing  ", "😀 𝄞 outside the BMP", #"< > & " ' ]]> <![CDATA[ x ]]>"#,
            "&amp; &lt; &#13;",
            "line\nline", "crlf\r\nline", "cr\ronly", "\r\n", "tab\there", "\n\n",
            String(repeating: "0123456789abcdef", count: 4096),
        ]
        let entity = Entity(
            partitionKey: "p",
            rowKey: "r",
            properties: values.enumerated().map { Property("S\($0.offset)", .string($0.element)) }
        )
        #expect(try Self.roundTrip([entity]) == [entity])
        #expect(try Self.roundTrip([entity], chunkSize: 5) == [entity])
    }

    @Test("an empty string stays a property; an absent one stays absent")
    func emptyVersusAbsent() throws {
        let entity = Entity(partitionKey: "p", rowKey: "r", properties: [Property("Empty", .string(""))])
        let back = try Self.roundTrip([entity, Entity(partitionKey: "p", rowKey: "s")])
        #expect(back[0]["Empty"] == .string(""))
        #expect(back[1].properties.isEmpty)
    }

    @Test("keys with quotes, spaces, slashes, non-ASCII; empty keys")
    func keys() throws {
        let entities = [
            Entity(partitionKey: "it's \"quoted\"", rowKey: "with spaces / and # ? %"),
            Entity(partitionKey: "Ünïcödé 😀", rowKey: "a&b<c>"),
            Entity(partitionKey: "", rowKey: ""),
        ]
        #expect(try Self.roundTrip(entities) == entities)
    }

    @Test("Binary and Guid")
    func binaryAndGuid() throws {
        let entity = Entity(
            partitionKey: "p",
            rowKey: "r",
            properties: [
                Property("Bytes", .binary(Array(0...255))), Property("None", .binary([])),
                Property("Id", .guid(.literal("C9DA6455-213D-42C9-9A79-3E9149A57833"))),
            ]
        )
        #expect(try Self.roundTrip([entity]) == [entity])
    }

    @Test("a feed of events read back through 7-byte reads")
    func smallReads() throws {
        let entities = (0..<50).map { index in
            Entity(
                partitionKey: "Events",
                rowKey: "row \(index)",
                timestamp: EdmDateTime(ticks: EdmDateTime.unixEpoch.ticks + Int64(index)),
                properties: [
                    Property("EventDate", .dateTime(.at("2026-03-01T09:30:00Z"))),
                    Property("EventName", .string("iOS Meetup #\(index)")),
                    Property("Description", .string(String(repeating: "lorem ipsum ", count: index))),
                ]
            )
        }
        #expect(try Self.roundTrip(entities, chunkSize: 7) == entities)
        #expect(try Self.roundTrip(entities, chunkSize: 1) == entities)
    }
}
