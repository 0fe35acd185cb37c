import SpeakEasyData
import TestSupport
import Testing

/// Entity → typed CSV → entity keeps every type and value.
@Suite("CSV round trips")
struct CSVRoundTripTests {
    static func roundTrip(
        _ entities: [Entity],
        _ options: CSVFormatter.Options = .init(typed: true),
        chunkSize: Int = CSVRecordScanner.defaultChunkSize
    ) throws -> [Entity] {
        try csvEntities(try csvBytes(entities, options), delimiter: options.delimiter, chunkSize: chunkSize)
    }

    // a, E, d, m, . and 0 are in type names, dates or numbers: the fuzzer's `--typed --delimiter a`
    // wrote type cells unquoted, which no reader could take back.
    @Test("every Edm type and its extremes survive typed CSV", arguments: Array(",\t;aEdm.0T-:".utf8))
    func everyType(delimiter: UInt8) throws {
        let entity = Entity(
            partitionKey: "p",
            rowKey: "r",
            timestamp: .at("2024-05-06T07:08:09.1234567Z"),
            properties: SampleProperties.everyType
        )
        #expect(try Self.roundTrip([entity], .init(typed: true, delimiter: delimiter)) == [entity])
    }

    @Test("the listed doubles keep their exact bits")
    func doubles() throws {
        let texts = [
            "NaN", "Infinity", "-Infinity", "-0.0", "4.94065645841247E-324", "1.7976931348623157E+308", "10.0", "0.1",
            "-2.5e-10",
        ]
        let values = texts.map { EdmValue(lexical: $0, as: .double)! }
        let entity = Entity(
            partitionKey: "p",
            rowKey: "r",
            properties: values.enumerated().map { Property("D\($0.offset)", $0.element) }
        )
        let read = try #require(try Self.roundTrip([entity]).first)
        #expect(read == entity)
        #expect(read["D3"].map { if case .double(let v) = $0 { v.sign == .minus && v == 0 } else { false } } == true)
        #expect(read["D6"]?.description == "10.0")
    }

    @Test("DateTime with 0 to 7 fractional digits keeps its ticks", arguments: 0...7)
    func dateTimes(digits: Int) throws {
        let fraction = digits == 0 ? "" : "." + String("1234567".prefix(digits))
        let date = EdmDateTime.at("2019-12-31T23:59:59\(fraction)Z")
        let entity = Entity(
            partitionKey: "p",
            rowKey: "r",
            timestamp: date,
            properties: [Property("When", .dateTime(date))]
        )
        let text = try csvText([entity], .init(typed: true))
        #expect(
            text.contains(
                "2019-12-31T23:59:59.\(String("1234567".prefix(digits)) + String(repeating: "0", count: 7 - digits))Z"
            )
        )
        #expect(try Self.roundTrip([entity]) == [entity])
        // Read as written by others: the short form, in both type spellings.
        for typeName in ["Edm.DateTime", "DateTime"] {
            let read = try csvEntities(
                "PartitionKey,RowKey,When,When@type\r\np,r,2019-12-31T23:59:59\(fraction)Z,\(typeName)\r\n"
            )
            #expect(read.first?["When"] == .dateTime(date))
        }
    }

    @Test("both type spellings read alike", arguments: EdmType.allCases)
    func spellings(type: EdmType) throws {
        let samples: [EdmType: String] = [
            .string: "x", .int32: "-7", .int64: "9223372036854775807", .double: "10.0", .boolean: "true",
            .dateTime: "2020-02-29T12:00:00Z", .guid: "c9da6455-213d-42c9-9a79-3e9149a57833", .binary: "AAH/",
        ]
        let lexical = samples[type]!
        let full = try csvEntities("PartitionKey,RowKey,V,V@type\r\np,r,\(lexical),\(type.rawValue)\r\n")
        let short = try csvEntities("PartitionKey,RowKey,V,V@type\r\np,r,\(lexical),\(type.shortName)\r\n")
        #expect(full == short)
        #expect(full.first?["V"] == EdmValue(lexical: lexical, as: type))
    }

    @Test("empty string versus absent property survives typed CSV")
    func emptyVersusAbsent() throws {
        let entities = [
            Entity(
                partitionKey: "p",
                rowKey: "empty",
                properties: [Property("S", .string("")), Property("B", .binary([]))]
            ),
            Entity(partitionKey: "p", rowKey: "absent", properties: []),
            Entity(
                partitionKey: "p",
                rowKey: "value",
                properties: [Property("S", .string("x")), Property("B", .binary([1]))]
            ),
        ]
        #expect(try Self.roundTrip(entities) == entities)
    }

    @Test("empty string versus absent property survives plain CSV: \"\" is the empty string, an empty cell absent")
    func emptyVersusAbsentPlain() throws {
        let entities = [
            Entity(
                partitionKey: "Events",
                rowKey: "empty",
                properties: [Property("EventName", .string("")), Property("S", .string(""))]
            ),
            Entity(partitionKey: "Events", rowKey: "absent", properties: []),
            Entity(
                partitionKey: "Events",
                rowKey: "value",
                properties: [Property("EventName", .string("x")), Property("S", .string("\""))]
            ),
        ]
        let text = try csvText(entities)
        #expect(
            text
                == "PartitionKey,RowKey,EventName,S\r\nEvents,empty,\"\",\"\"\r\nEvents,absent,,\r\nEvents,value,x,\"\"\"\"\r\n"
        )
        for chunkSize in csvChunkSizes { #expect(try csvEntities(text, chunkSize: chunkSize) == entities) }
    }

    @Test(
        "awkward text: Unicode outside the BMP, newlines, CR, quotes, delimiters, 64 KiB",
        arguments: [1, 7, 4096, CSVRecordScanner.defaultChunkSize]
    )
    func awkwardText(chunkSize: Int) throws {
        let long = String(repeating: "Lorem \"ipsum\", dolor\r\nsit 😀 amet. ", count: 65_536 / 32 + 1)
        let texts = [
            "😀🎉𝄞", "a\nb", "a\rb", "a\r\nb", "\"", "\"\"", ",", ";", "\t", " lead and trail ", "\u{FEFF}bom", "é", long,
        ]
        let entity = Entity(
            partitionKey: "part \"one\", two",
            rowKey: "row key\nwith \"quotes\" and spaces ",
            properties: texts.enumerated().map { Property("T\($0.offset)", .string($0.element)) }
        )
        #expect(long.utf8.count >= 65_536)
        for delimiter in [UInt8(ascii: ","), 0x09] {
            #expect(
                try Self.roundTrip([entity, entity], .init(typed: true, delimiter: delimiter), chunkSize: chunkSize)
                    == [entity, entity]
            )
        }
    }

    @Test("plain CSV keeps strings and EventDate")
    func plain() throws {
        let event = Entity(
            partitionKey: "Events",
            rowKey: "c9da6455-213d-42c9-9a79-3e9149a57833",
            properties: [
                Property("EventDate", .dateTime(.at("2026-03-01T09:30:00.1234567Z"))),
                Property("EventName", .string("Mobile Mondays")),
                Property("EventLocation", .string("Chicago, IL")),
                Property("EventDescription", .string("Lorem \"ipsum\"\ndolor")),
            ]
        )
        #expect(try Self.roundTrip([event], .init()) == [event])
    }

    @Test("many varied entities through tiny reads")
    func many() throws {
        let entities = (0..<500).map { index in
            Entity(
                partitionKey: index % 2 == 0 ? "Events" : "speakers",
                rowKey: "key \(index)",
                properties: index % 3 == 1
                    ? []
                    : [
                        Property("N", .int64(Int64(index) << 40)),
                        Property("S", .string(String(repeating: "\"x,\n", count: index % 17))),
                    ]
            )
        }
        #expect(try Self.roundTrip(entities, chunkSize: 3) == entities)
    }
}
