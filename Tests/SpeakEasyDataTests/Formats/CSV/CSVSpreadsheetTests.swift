import SpeakEasyData
import TestSupport
import Testing

/// The spreadsheet layout, for people: their columns first, dates a spreadsheet reads, a BOM; and
/// the byte order mark for the other layouts.
@Suite("CSV spreadsheet layout")
struct CSVSpreadsheetTests {
    static let bom = "\u{FEFF}"

    /// An event whose properties come in the store's order (alphabetical), not a person's.
    static let event = Entity(
        partitionKey: "Events",
        rowKey: "e1",
        timestamp: .at("2026-01-02T03:04:05.5Z"),
        properties: [
            Property("EventDate", .dateTime(.at("2026-03-01T18:30:00Z"))),
            Property("EventDescription", .string("Lorem, ipsum")),
            Property("EventLocation", .string("Chicago, IL")), Property("EventName", .string("iOS Meetup")),
            Property("SpeakerKey", .string("k1")), Property("SpeakerName", .string("Bart Müller")),
        ]
    )

    static let speaker = Entity(
        partitionKey: "speakers",
        rowKey: "k1",
        properties: [
            Property("Bio", .string("b")), Property("ImageUrl", .string("http://x/a.jpg")),
            Property("Name", .string("Bart Müller")),
            Property("Title", .string("Consultant")),
        ]
    )

    @Test("the people's columns first, the keys last, no Timestamp, dates in UTC as spreadsheets read them, a BOM")
    func event() throws {
        let text = try csvText([Self.event], .init(spreadsheet: true))
        #expect(
            text == Self.bom
                + "EventDate (UTC),EventName,EventLocation,SpeakerName,EventDescription,SpeakerKey,PartitionKey,RowKey\r\n"
                + "2026-03-01 18:30:00,iOS Meetup,\"Chicago, IL\",Bart Müller,\"Lorem, ipsum\",k1,Events,e1\r\n"
        )
    }

    @Test("a speaker's columns in a person's order; other properties after the contract's, in their order")
    func speaker() throws {
        var speaker = Self.speaker
        speaker.properties.insert(Property("Zeta", .int32(1)), at: 0)
        speaker.properties.append(Property("Alpha", .string("a")))
        #expect(
            try csvText([speaker], .init(spreadsheet: true)) == Self.bom
                + "Name,Title,Bio,ImageUrl,Zeta,Alpha,PartitionKey,RowKey\r\nBart Müller,Consultant,b,http://x/a.jpg,1,a,speakers,k1\r\n"
        )
    }

    @Test(
        "dates are cut to the millisecond, a fraction kept, trimmed, only when it is not zero; any DateTime column says UTC",
        arguments: [
            ("2026-03-01T18:30:00Z", "2026-03-01 18:30:00"), ("2026-03-01T18:30:00.5Z", "2026-03-01 18:30:00.5"),
            ("2026-03-01T18:30:00.1234567Z", "2026-03-01 18:30:00.123"),
            ("0001-01-01T00:00:00.0000001Z", "0001-01-01 00:00:00"),
            ("2026-01-02T14:17:00.0000001Z", "2026-01-02 14:17:00"),
            ("2026-03-01T18:30:00.9999999Z", "2026-03-01 18:30:00.999"),
        ]
    )
    func dates(_ lexical: String, _ written: String) throws {
        let entity = Entity(partitionKey: "p", rowKey: "r", properties: [Property("Start", .dateTime(.at(lexical)))])
        #expect(
            try csvText([entity], .init(spreadsheet: true)) == Self.bom
                + "Start (UTC),PartitionKey,RowKey\r\n\(written),p,r\r\n"
        )
    }

    @Test("a delimiter that occurs in spreadsheet dates quotes them")
    func spaceDelimiter() throws {
        let entity = Entity(
            partitionKey: "p",
            rowKey: "r",
            properties: [Property("EventDate", .dateTime(.at("2026-03-01T18:30:00Z")))]
        )
        #expect(
            try csvText([entity], .init(delimiter: UInt8(ascii: " "), spreadsheet: true)) == Self.bom
                + "\"EventDate (UTC)\" PartitionKey RowKey\r\n\"2026-03-01 18:30:00\" p r\r\n"
        )
    }

    @Test("given columns: exactly those, keys and Timestamp only when listed")
    func givenColumns() throws {
        #expect(
            try csvText([Self.event], .init(columns: ["EventName", "EventDate"], spreadsheet: true)) == Self.bom
                + "EventName,EventDate (UTC)\r\niOS Meetup,2026-03-01 18:30:00\r\n"
        )
        #expect(
            try csvText([Self.event], .init(columns: ["RowKey", "Timestamp"], spreadsheet: true)) == Self.bom
                + "RowKey,Timestamp (UTC)\r\ne1,2026-01-02 03:04:05.5\r\n"
        )
        // No entity: the contract still says which listed columns hold dates.
        #expect(try csvText([], .init(columns: ["EventDate"], spreadsheet: true)) == Self.bom + "EventDate (UTC)\r\n")
    }

    @Test("events, then speakers: their columns join before the keys, which stay last")
    func mixedPartitions() throws {
        let bytes = try EntityFiles.bytes(of: [Self.event, Self.speaker, Self.event], options: Self.spreadsheetOptions)
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        #expect(
            lines[0] == Self.bom
                + "EventDate (UTC),EventName,EventLocation,SpeakerName,EventDescription,SpeakerKey,Bio,ImageUrl,Name,Title,PartitionKey,RowKey"
        )
        #expect(
            lines[1] == "2026-03-01 18:30:00,iOS Meetup,\"Chicago, IL\",Bart Müller,\"Lorem, ipsum\",k1,,,,,Events,e1"
        )
        #expect(lines[2] == ",,,,,,b,http://x/a.jpg,Bart Müller,Consultant,speakers,k1")
        #expect(lines[3] == lines[1])
        #expect(lines[4] == "" && lines.count == 5)
    }

    @Test("a late column before the keys when a row has no property before them, or quoted ones")
    func lateColumnPadding() throws {
        let bare = Entity(partitionKey: "p,q", rowKey: "\"r\"")
        let full = Entity(
            partitionKey: "p",
            rowKey: "s",
            properties: [Property("A", .string("a")), Property("B", .string("b"))]
        )
        let text = String(
            decoding: try EntityFiles.bytes(of: [bare, full], options: Self.spreadsheetOptions),
            as: UTF8.self
        )
        #expect(text == Self.bom + "A,B,PartitionKey,RowKey\r\n,,\"p,q\",\"\"\"r\"\"\"\r\na,b,p,s\r\n")
    }

    @Test("the spreadsheet layout is refused when read back, naming file, line, column and why")
    func notReadBack() throws {
        let bytes = try EntityFiles.bytes(of: [Self.event, Self.speaker], options: Self.spreadsheetOptions)
        let error = try #require(csvReadError(bytes))
        #expect(error.source == "test.csv" && error.line == 1 && error.column == 1)
        #expect(error.reason.contains("'EventDate (UTC)' is from export's spreadsheet layout"), "\(error)")
        #expect(error.kind == .malformedInput)
    }

    @Test("typed and spreadsheet exclude each other")
    func notTyped() {
        let error = #expect(throws: FormatError.self) { try CSVFormatter(.init(typed: true, spreadsheet: true)) }
        #expect(error?.kind == .usage)
    }

    @Test("a byte order mark for plain and typed CSV, which the reader skips", arguments: [false, true])
    func byteOrderMark(typed: Bool) throws {
        let bytes = try csvBytes([Self.event], .init(typed: typed, byteOrderMark: true))
        #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF, UInt8(ascii: "P")]))
        #expect(try csvEntities(bytes).map(\.rowKey) == ["e1"])
        #expect(try csvBytes([Self.event], .init(typed: typed)).first == UInt8(ascii: "P"))
    }

    @Test("the rewrite of a grown header keeps the byte order mark, once")
    func byteOrderMarkRewritten() throws {
        var options = EntityFiles.WriteOptions(format: .csv)
        options.byteOrderMark = true
        let later = Entity(partitionKey: "p", rowKey: "x", properties: [Property("New", .string("n"))])
        let text = String(decoding: try EntityFiles.bytes(of: [Self.speaker, later], options: options), as: UTF8.self)
        #expect(text.hasPrefix(Self.bom + "PartitionKey,RowKey,Bio,ImageUrl,Name,Title,New\r\n"))
        #expect(!text.dropFirst().contains(Self.bom))
    }

    static var spreadsheetOptions: EntityFiles.WriteOptions {
        var options = EntityFiles.WriteOptions(format: .csv)
        options.spreadsheetCSV = true
        return options
    }
}
