import SpeakEasyData
import TestSupport
import Testing

/// The typed (Storage Explorer) and plain layouts, and the rules for empty cells.
@Suite("CSV entity reader")
struct CSVEntityReaderTests {
    @Test("a Storage Explorer 1.18 export (Edm. spellings)")
    func storageExplorerTyped() throws {
        let text = """
            PartitionKey,RowKey,Timestamp,Followers,Followers@type,Name,Name@type,Joined,Joined@type\r
            speakers,ada,2017-09-03T12:17:54.827Z,42,Edm.Int64,Ada,Edm.String,2012-11-10T03:04:05Z,Edm.DateTime\r
            speakers,bob,,,,Bob,Edm.String,,\r

            """
        var reader = try CSVEntityReader(ByteInput(name: "t.csv", bytes: Array(text.utf8)))
        let ada = try #require(try reader.next())
        #expect(reader.layout == .typed)
        #expect(reader.entityLine == 2)
        #expect(ada.partitionKey == "speakers")
        #expect(ada.rowKey == "ada")
        #expect(ada.timestamp == .at("2017-09-03T12:17:54.827Z"))
        #expect(
            ada.properties == [
                Property("Followers", .int64(42)), Property("Name", .string("Ada")),
                Property("Joined", .dateTime(.at("2012-11-10T03:04:05Z"))),
            ]
        )
        let bob = try #require(try reader.next())
        #expect(reader.entityLine == 3)
        #expect(bob.timestamp == nil)
        #expect(bob.properties == [Property("Name", .string("Bob"))])
        #expect(try reader.next() == nil)
    }

    @Test("bare type names (Storage Explorer 1.40) and inherited types after empty type cells")
    func storageExplorer140() throws {
        let text = """
            PartitionKey,RowKey,Timestamp,Count,Count@type,Ratio,Ratio@type,Id,Id@type,Flag,Flag@type,Data,Data@type\r
            p,1,2025-09-22T09:45:35.2743359Z,7,Int32,0.5,Double,c9da6455-213d-42c9-9a79-3e9149a57833,Guid,true,Boolean,AAEC,Binary\r
            p,2,,8,,1.5,,c9da6455-213d-42c9-9a79-3e9149a57834,,false,,/w==,\r

            """
        let entities = try csvEntities(text)
        #expect(entities.count == 2)
        #expect(entities[0].timestamp == .at("2025-09-22T09:45:35.2743359Z"))
        #expect(
            entities[1].properties == [
                Property("Count", .int32(8)), Property("Ratio", .double(1.5)),
                Property("Id", .guid(.literal("c9da6455-213d-42c9-9a79-3e9149a57834"))),
                Property("Flag", .boolean(false)), Property("Data", .binary([0xFF])),
            ]
        )
    }

    @Test("an inherited type comes from the first non-empty type cell, even after rows without one")
    func inheritanceStartsLate() throws {
        let text = "PartitionKey,RowKey,N,N@type\r\np,1,,\r\np,2,5,Int64\r\np,3,6,\r\n"
        let entities = try csvEntities(text)
        #expect(entities.map(\.properties) == [[], [Property("N", .int64(5))], [Property("N", .int64(6))]])
    }

    @Test("a typed value with no type cell yet is a string")
    func untypedValueIsString() throws {
        let entities = try csvEntities("PartitionKey,RowKey,N,N@type\r\np,1,5,\r\n")
        #expect(entities[0].properties == [Property("N", .string("5"))])
    }

    @Test("typed: empty value with a filled String or Binary type cell is an empty value; otherwise absent")
    func typedEmptyCells() throws {
        let text = """
            PartitionKey,RowKey,S,S@type,B,B@type,I,I@type\r
            p,filled,,Edm.String,,Edm.Binary,,Edm.Int32\r
            p,inherited,,,,,,\r

            """
        let entities = try csvEntities(text)
        #expect(entities[0].properties == [Property("S", .string("")), Property("B", .binary([]))])
        #expect(entities[1].properties == [])
    }

    @Test("plain: strings, EventDate as DateTime, empty cells absent")
    func plain() throws {
        let text = """
            PartitionKey,RowKey,EventDate,EventName,Count\r
            Events,e1,2026-03-01T09:30:00.0000000Z,iOS Meetup,12\r
            Events,e2,,,\r

            """
        var reader = try CSVEntityReader(ByteInput(name: "t.csv", bytes: Array(text.utf8)))
        let first = try #require(try reader.next())
        #expect(reader.layout == .plain)
        #expect(
            first.properties == [
                Property("EventDate", .dateTime(.at("2026-03-01T09:30:00Z"))),
                Property("EventName", .string("iOS Meetup")), Property("Count", .string("12")),
            ]
        )
        let second = try #require(try reader.next())
        #expect(second.properties == [])
        #expect(second.timestamp == nil)
    }

    @Test(
        "plain: a quoted empty cell is an empty string, in string columns only; the typed layout goes by its type cells"
    )
    func plainQuotedEmpty() throws {
        let plain = try csvEntities("PartitionKey,RowKey,EventName,EventDate\r\n\"\",\"\",\"\",\"\"\r\n")
        #expect(plain == [Entity(partitionKey: "", rowKey: "", properties: [Property("EventName", .string(""))])])
        let typed = try csvEntities("PartitionKey,RowKey,S,S@type\r\np,r,\"\",\r\np,q,\"\",\"\"\r\n")
        #expect(typed.map(\.properties) == [[], []])
    }

    @Test("Timestamp is the entity's timestamp wherever it stands, never a property")
    func timestampColumn() throws {
        let entities = try csvEntities("Name,Timestamp,RowKey,PartitionKey\r\nx,2020-01-02T03:04:05.1234567Z,r,p\r\n")
        #expect(
            entities == [
                Entity(
                    partitionKey: "p",
                    rowKey: "r",
                    timestamp: .at("2020-01-02T03:04:05.1234567Z"),
                    properties: [Property("Name", .string("x"))]
                )
            ]
        )
    }

    @Test("a header without data rows reads as no entities")
    func headerOnly() throws {
        #expect(try csvEntities("PartitionKey,RowKey\r\n").isEmpty)
    }

    @Test("a tab delimiter, a BOM and CRLF inside a typed file", arguments: csvChunkSizes)
    func tabAndBOM(chunkSize: Int) throws {
        let text = "\u{FEFF}PartitionKey\tRowKey\tNote\tNote@type\r\np\t\"r 1\"\t\"a\tb\r\nc\"\tString\r\n"
        let entities = try csvEntities(Array(text.utf8), delimiter: 0x09, chunkSize: chunkSize)
        #expect(
            entities == [Entity(partitionKey: "p", rowKey: "r 1", properties: [Property("Note", .string("a\tb\r\nc"))])]
        )
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var line: Int
        var column: Int
        var keys: [String]?
        var reason: String
        var testDescription: String { name }
    }

    static let failures: [Failure] = [
        Failure(name: "empty input", text: "", line: 1, column: 1, reason: "the input is empty"),
        Failure(
            name: "no PartitionKey",
            text: "RowKey,Name\r\n",
            line: 1,
            column: 1,
            reason: "the header has no PartitionKey column"
        ),
        Failure(
            name: "a European Excel header (BOM, ';')",
            text: "\u{FEFF}PartitionKey;RowKey;Name\r\nspeakers;a;Ada\r\n",
            line: 1,
            column: 1,
            reason: "the header looks ';'-separated"
        ),
        Failure(
            name: "a tab-separated header",
            text: "PartitionKey\tRowKey\r\n",
            line: 1,
            column: 1,
            reason: "the header looks tab-separated"
        ),
        Failure(
            name: "';' in a header that still has no key",
            text: "PartitionKey;Name\r\n",
            line: 1,
            column: 1,
            reason: "the header has no PartitionKey column"
        ),
        Failure(
            name: "no RowKey",
            text: "PartitionKey,Name\r\nx,y\r\n",
            line: 1,
            column: 1,
            reason: "the header has no RowKey column"
        ),
        Failure(
            name: "duplicate column",
            text: "PartitionKey,RowKey,Name,Name\r\n",
            line: 1,
            column: 26,
            reason: "the column 'Name' appears twice in the header (first as column 3)"
        ),
        Failure(
            name: "empty column name",
            text: "PartitionKey,RowKey,,x\r\n",
            line: 1,
            column: 21,
            reason: "a header cell is empty"
        ),
        Failure(
            name: "type column without its property",
            text: "PartitionKey,RowKey,A,B@type\r\n",
            line: 1,
            column: 21,
            reason: "the column 'A' has no 'A@type' column after it"
        ),
        Failure(
            name: "type column first",
            text: "PartitionKey,RowKey,B@type,B\r\n",
            line: 1,
            column: 21,
            reason: "the type column 'B@type' must follow the column 'B'"
        ),
        Failure(
            name: "type column for a system column",
            text: "PartitionKey,RowKey,Timestamp,Timestamp@type\r\n",
            line: 1,
            column: 31,
            reason: "Timestamp is a system column"
        ),
        Failure(
            name: "unknown type name",
            text: "PartitionKey,RowKey,N,N@type\r\np,r,1,Edm.Int16\r\n",
            line: 2,
            column: 7,
            reason: "N@type: 'Edm.Int16' is not an Edm type"
        ),
        Failure(
            name: "Int64 that does not fit",
            text: "PartitionKey,RowKey,Followers,Followers@type\r\np,r,abc,Edm.Int64\r\n",
            line: 2,
            column: 5,
            keys: ["p", "r"],
            reason: "Followers: 'abc' is not an Edm.Int64"
        ),
        Failure(
            name: "Int32 overflow",
            text: "PartitionKey,RowKey,N,N@type\r\np,r,2147483648,Int32\r\n",
            line: 2,
            column: 5,
            keys: ["p", "r"],
            reason: "N: '2147483648' is not an Edm.Int32"
        ),
        Failure(
            name: "inherited type checked too",
            text: "PartitionKey,RowKey,N,N@type\r\np,1,1,Int32\r\np,2,x,\r\n",
            line: 3,
            column: 5,
            keys: ["p", "2"],
            reason: "N: 'x' is not an Edm.Int32"
        ),
        Failure(
            name: "bad Guid",
            text: "PartitionKey,RowKey,G,G@type\r\np,r,nope,Guid\r\n",
            line: 2,
            column: 5,
            keys: ["p", "r"],
            reason: "G: 'nope' is not an Edm.Guid"
        ),
        Failure(
            name: "bad Boolean",
            text: "PartitionKey,RowKey,B,B@type\r\np,r,yes,Boolean\r\n",
            line: 2,
            column: 5,
            keys: ["p", "r"],
            reason: "B: 'yes' is not an Edm.Boolean"
        ),
        Failure(
            name: "bad Double",
            text: "PartitionKey,RowKey,D,D@type\r\np,r,0x10,Double\r\n",
            line: 2,
            column: 5,
            keys: ["p", "r"],
            reason: "D: '0x10' is not an Edm.Double"
        ),
        Failure(
            name: "bad Binary",
            text: "PartitionKey,RowKey,B,B@type\r\np,r,!!,Binary\r\n",
            line: 2,
            column: 5,
            keys: ["p", "r"],
            reason: "B: '!!' is not an Edm.Binary"
        ),
        Failure(
            name: "bad DateTime in a typed column",
            text: "PartitionKey,RowKey,D,D@type\r\np,r,2020-13-01T00:00:00Z,DateTime\r\n",
            line: 2,
            column: 5,
            keys: ["p", "r"],
            reason: "D: '2020-13-01T00:00:00Z' is not an Edm.DateTime"
        ),
        Failure(
            name: "bad EventDate in plain CSV",
            text: "PartitionKey,RowKey,EventDate\r\nEvents,e,\"March 1\"\r\n",
            line: 2,
            column: 10,
            keys: ["Events", "e"],
            reason: "EventDate: 'March 1' is not an Edm.DateTime"
        ),
        Failure(
            name: "bad Timestamp",
            text: "PartitionKey,RowKey,Timestamp\r\np,r,yesterday\r\n",
            line: 2,
            column: 5,
            keys: ["p", "r"],
            reason: "Timestamp: 'yesterday' is not an Edm.DateTime"
        ),
    ]

    @Test("bad headers and values are located, with the entity's keys", arguments: failures)
    func failing(_ failure: Failure) throws {
        let error = try #require(csvReadError(failure.text))
        #expect(error.line == failure.line, "\(error)")
        #expect(error.column == failure.column, "\(error)")
        #expect(error.keys.map { [$0.partitionKey, $0.rowKey] } == failure.keys, "\(error)")
        #expect(error.reason.contains(failure.reason), "\(error)")
        #expect(error.kind == .malformedInput)
    }

    @Test("a comma header read with --delimiter ';' is told to use ','")
    func commaHeaderReadWithSemicolon() throws {
        let error = try #require(csvReadError(Array("PartitionKey,RowKey\r\n".utf8), delimiter: UInt8(ascii: ";")))
        #expect(error.reason == "the header looks ','-separated", "\(error)")
        #expect(
            error.toolAdvice == ": use --delimiter ','",
            "the tools add their option; the library's words name none"
        )
    }

    @Test("keepsUnreadableDates keeps a plain column's non-date as text; a typed column still refuses it")
    func unreadableDates() throws {
        func read(_ text: String) throws -> [Entity] {
            var reader = try CSVEntityReader(
                ByteInput(name: "t.csv", bytes: Array(text.utf8)),
                keepsUnreadableDates: true
            )
            var entities: [Entity] = []
            while let entity = try reader.next() { entities.append(entity) }
            return entities
        }
        let plain = try read(
            "PartitionKey,RowKey,EventDate\r\nEvents,a,\"March 1\"\r\nEvents,b,2026-03-01T09:30:00Z\r\nEvents,c,\r\n"
        )
        #expect(plain.map { $0["EventDate"] } == [.string("March 1"), .dateTime(.at("2026-03-01T09:30:00Z")), nil])
        #expect(throws: FormatError.self) {
            try read("PartitionKey,RowKey,EventDate,EventDate@type\r\nEvents,a,March 1,Edm.DateTime\r\n")
        }
        // Text that is not UTF-8 is still malformed input.
        var reader = try CSVEntityReader(
            ByteInput(name: "t.csv", bytes: Array("PartitionKey,RowKey,EventDate\r\nEvents,a,".utf8) + [0xC3, 0x28]),
            keepsUnreadableDates: true
        )
        #expect(throws: FormatError.self) { try reader.next() }
    }

    @Test("a delimiter CSV itself uses is a usage error")
    func badDelimiter() {
        for delimiter in [UInt8(ascii: "\""), 0x0A, 0x0D, 0xC3] {
            let error = #expect(throws: FormatError.self) {
                try CSVEntityReader(ByteInput(name: "t", bytes: []), delimiter: delimiter)
            }
            #expect(error?.kind == .usage)
        }
    }
}
