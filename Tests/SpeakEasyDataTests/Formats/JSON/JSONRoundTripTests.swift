import SpeakEasyData
import TestSupport
import Testing

/// Writer then reader: every Edm value keeps its type and exact value.
@Suite("JSON entity writer ⇄ reader round trip")
struct JSONRoundTripTests {
    static func roundTrip(_ properties: [Property], metadata: JSONMetadata = .minimal) throws -> [Property] {
        var json = [UInt8]()
        JSONEntityWriter.appendPropertiesObject(properties, metadata: metadata, to: &json)
        return try JSONEntityReader.properties(fromObject: json)
    }

    @Test("every Edm type survives, including extremes and special doubles", arguments: [JSONMetadata.minimal, .full])
    func everyType(metadata: JSONMetadata) throws {
        let read = try Self.roundTrip(SampleProperties.everyType, metadata: metadata)
        #expect(read == SampleProperties.everyType)
        for (original, back) in zip(SampleProperties.everyType, read) {
            #expect(back.value.type == original.value.type, "\(original.name)")
        }
    }

    @Test("each value survives on its own", arguments: SampleProperties.everyType)
    func singleProperty(property: Property) throws {
        #expect(try Self.roundTrip([property]) == [property])
    }

    @Test(
        "DateTime keeps every tick",
        arguments: [
            "0001-01-01T00:00:00.0000000Z", "1601-01-01T00:00:00.0000001Z", "2012-11-10T03:04:05.2Z",
            "2024-02-29T23:59:59.9999999Z", "9999-12-31T23:59:59.9999999Z",
        ]
    )
    func dateTicks(text: String) throws {
        let property = Property("When", .dateTime(.at(text)))
        #expect(try Self.roundTrip([property]) == [property])
    }

    @Test(
        "the special doubles keep their bit patterns",
        arguments: [
            Double.nan, .infinity, -.infinity, -0.0, 0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 10.0, -10.0,
            1e21, 1e-7, 0.1,
        ]
    )
    func doubles(value: Double) throws {
        let read = try Self.roundTrip([Property("D", .double(value))])
        guard case .double(let back)? = read.first?.value else {
            Issue.record("read back \(read)")
            return
        }
        #expect(back.bitPattern == value.bitPattern || (back.isNaN && value.isNaN))
    }

    @Test(
        "strings survive escaping",
        arguments: [
            "", "plain", "\"quoted\"", "back\\slash", "\\\"", "line\nbreak\r\n", "tab\there", "/slash/",
            String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self), "\u{7F}", "\u{2028}\u{2029}",
            "😀 outside the BMP 𝄞", "Müller, Ø, 日本語", "e\u{301}", "\u{FEFF}bom", "{\"not\":\"json\"}", "NaN", "null",
        ]
    )
    func strings(text: String) throws {
        let property = Property("S", .string(text))
        #expect(try Self.roundTrip([property]) == [property])
    }

    @Test("a 64 KiB string with multi-byte characters survives")
    func largeString() throws {
        var random = SplitMix64(seed: 64)
        let alphabet: [Character] = ["a", "Z", "0", " ", "\"", "\\", "\n", "\u{01}", "é", "€", "😀"]
        var text = ""
        while text.utf8.count < 64 * 1024 { text.append(alphabet[random.index(below: alphabet.count)]) }
        let property = Property("Big", .string(text))
        let read = try Self.roundTrip([property])
        #expect(read == [property])
    }

    @Test("property names are escaped too")
    func escapedNames() throws {
        let properties = [Property("we\"ird\\name", .int64(5)), Property("ünïcode", .guid(EdmGuid(high: 1, low: 2)))]
        #expect(try Self.roundTrip(properties) == properties)
    }

    @Test("an empty object is no properties")
    func empty() throws {
        #expect(try Self.roundTrip([]).isEmpty)
    }

    @Test("nometadata loses the types JSON cannot tell, as Azure's does")
    func noMetadataIsLossy() throws {
        let read = try Self.roundTrip(
            [
                Property("I", .int64(5)), Property("G", .guid(EdmGuid(high: 1, low: 2))), Property("N", .int32(3)),
                Property("D", .double(2.5)),
            ],
            metadata: .none
        )
        #expect(
            read == [
                Property("I", .string("5")), Property("G", .string("00000000-0000-0001-0000-000000000002")),
                Property("N", .int32(3)), Property("D", .double(2.5)),
            ]
        )
    }
}
