import SpeakEasyData
import TestSupport
import Testing

/// The bytes the formatter writes: columns, quoting, line ends.
@Suite("CSV formatter")
struct CSVFormatterTests {
    static let event = Entity(
        partitionKey: "Events",
        rowKey: "e1",
        timestamp: .at("2026-01-02T03:04:05.5Z"),
        properties: [
            Property("EventDate", .dateTime(.at("2026-03-01T09:30:00Z"))), Property("EventName", .string("iOS Meetup")),
            Property("Seats", .int32(40)),
        ]
    )

    @Test("plain: header from the first entity, Timestamp because it has one, CRLF")
    func plain() throws {
        #expect(
            try csvText([Self.event])
                == "PartitionKey,RowKey,Timestamp,EventDate,EventName,Seats\r\nEvents,e1,2026-01-02T03:04:05.5000000Z,2026-03-01T09:30:00.0000000Z,iOS Meetup,40\r\n"
        )
    }

    @Test("plain: no Timestamp column when the first entity has none")
    func plainWithoutTimestamp() throws {
        #expect(
            try csvText([Self.event.content])
                == "PartitionKey,RowKey,EventDate,EventName,Seats\r\nEvents,e1,2026-03-01T09:30:00.0000000Z,iOS Meetup,40\r\n"
        )
    }

    @Test("typed: Timestamp always, Name@type after each property with the Edm. spelling")
    func typed() throws {
        let text = try csvText([Self.event.content], .init(typed: true))
        #expect(
            text
                == "PartitionKey,RowKey,Timestamp,EventDate,EventDate@type,EventName,EventName@type,Seats,Seats@type\r\nEvents,e1,,2026-03-01T09:30:00.0000000Z,Edm.DateTime,iOS Meetup,Edm.String,40,Edm.Int32\r\n"
        )
    }

    @Test("typed: an absent property leaves value and type empty; an empty string fills the type")
    func typedAbsentAndEmpty() throws {
        let a = Entity(
            partitionKey: "p",
            rowKey: "a",
            properties: [Property("S", .string("")), Property("N", .int64(1))]
        )
        let b = Entity(partitionKey: "p", rowKey: "b", properties: [Property("N", .int64(2))])
        #expect(
            try csvText([a, b], .init(typed: true))
                == "PartitionKey,RowKey,Timestamp,S,S@type,N,N@type\r\np,a,,,Edm.String,1,Edm.Int64\r\np,b,,,,2,Edm.Int64\r\n"
        )
    }

    @Test("quotes only when needed, doubling quotes")
    func quoting() throws {
        let values = ["plain", " spaced ", "a,b", "say \"hi\"", "line\nbreak", "cr\rhere", "\"", "😀"]
        let entity = Entity(
            partitionKey: "p \"q\"",
            rowKey: "r",
            properties: values.enumerated().map { Property("V\($0.offset)", .string($0.element)) }
        )
        let text = try csvText([entity])
        #expect(
            text.hasSuffix(
                "\r\n\"p \"\"q\"\"\",r,plain, spaced ,\"a,b\",\"say \"\"hi\"\"\",\"line\nbreak\",\"cr\rhere\",\"\"\"\",😀\r\n"
            )
        )
    }

    @Test("a tab delimiter quotes tabs, not commas")
    func tab() throws {
        let entity = Entity(
            partitionKey: "p",
            rowKey: "r",
            properties: [Property("A", .string("x,y")), Property("B", .string("x\ty"))]
        )
        #expect(
            try csvText([entity], .init(delimiter: 0x09)) == "PartitionKey\tRowKey\tA\tB\r\np\tr\tx,y\t\"x\ty\"\r\n"
        )
    }

    @Test("a delimiter that can occur in dates quotes the dates")
    func delimiterInDates() throws {
        let entity = Entity(partitionKey: "p", rowKey: "r", timestamp: .at("2020-01-01T00:00:00Z"))
        #expect(
            try csvText([entity], .init(delimiter: UInt8(ascii: ":")))
                == "PartitionKey:RowKey:Timestamp\r\np:r:\"2020-01-01T00:00:00.0000000Z\"\r\n"
        )
    }

    @Test("given columns: exactly those, in that order, keys in front unless placed")
    func givenColumns() throws {
        #expect(
            try csvText([Self.event], .init(columns: ["Seats", "EventName", "Missing"]))
                == "PartitionKey,RowKey,Seats,EventName,Missing\r\nEvents,e1,40,iOS Meetup,\r\n"
        )
        #expect(
            try csvText([Self.event], .init(columns: ["EventName", "RowKey", "Timestamp", "PartitionKey"]))
                == "EventName,RowKey,Timestamp,PartitionKey\r\niOS Meetup,e1,2026-01-02T03:04:05.5000000Z,Events\r\n"
        )
        #expect(
            try csvText([Self.event], .init(typed: true, columns: ["Seats"]))
                == "PartitionKey,RowKey,Timestamp,Seats,Seats@type\r\nEvents,e1,2026-01-02T03:04:05.5000000Z,40,Edm.Int32\r\n"
        )
    }

    @Test("no entities: a header alone")
    func empty() throws {
        #expect(try csvText([]) == "PartitionKey,RowKey\r\n")
        #expect(try csvText([], .init(typed: true)) == "PartitionKey,RowKey,Timestamp\r\n")
        #expect(try csvText([], .init(columns: ["A"])) == "PartitionKey,RowKey,A\r\n")
    }

    @Test("properties in another order are matched by name")
    func otherOrder() throws {
        let a = Entity(
            partitionKey: "p",
            rowKey: "a",
            properties: [Property("X", .string("1")), Property("Y", .string("2"))]
        )
        let b = Entity(
            partitionKey: "p",
            rowKey: "b",
            properties: [Property("Y", .string("3")), Property("X", .string("4"))]
        )
        let c = Entity(partitionKey: "p", rowKey: "c", properties: [Property("Y", .string("5"))])
        #expect(try csvText([a, b, c]) == "PartitionKey,RowKey,X,Y\r\np,a,1,2\r\np,b,4,3\r\np,c,,5\r\n")
    }

    @Test("a property seen late adds a column; the rewrite completes the header and pads rows")
    func lateColumn() throws {
        let a = Entity(partitionKey: "p", rowKey: "a", properties: [Property("X", .int32(1))])
        let b = Entity(
            partitionKey: "p",
            rowKey: "b",
            timestamp: .at("2020-01-01T00:00:00Z"),
            properties: [Property("Y", .string("q,\"r\"")), Property("X", .int32(2))]
        )
        let c = Entity(partitionKey: "p", rowKey: "c", properties: [Property("X", .int32(3))])
        for typed in [false, true] {
            var formatter = try CSVFormatter(.init(typed: typed))
            var out: [UInt8] = []
            formatter.begin(into: &out)
            try formatter.append(a, into: &out)
            #expect(!formatter.headerIsIncomplete)
            try formatter.append(b, into: &out)
            try formatter.append(c, into: &out)
            formatter.end(into: &out)
            #expect(formatter.headerIsIncomplete)

            var rewritten: [UInt8] = []
            try formatter.rewriteWithFinalHeader(ByteInput(name: "partial.csv", bytes: out)) {
                buffer throws(FormatError) in
                rewritten.append(contentsOf: buffer)
                buffer.removeAll()
            }
            let expected =
                typed
                ? "PartitionKey,RowKey,Timestamp,X,X@type,Y,Y@type\r\np,a,,1,Edm.Int32,,\r\np,b,2020-01-01T00:00:00.0000000Z,2,Edm.Int32,\"q,\"\"r\"\"\",Edm.String\r\np,c,,3,Edm.Int32,,\r\n"
                : "PartitionKey,RowKey,X,Y,Timestamp\r\np,a,1,,\r\np,b,2,\"q,\"\"r\"\"\",2020-01-01T00:00:00.0000000Z\r\np,c,3,,\r\n"
            #expect(String(decoding: rewritten, as: UTF8.self) == expected)
            let read = try csvEntities(rewritten)
            if typed {
                // CSV holds properties in column order, whatever order an entity listed them in.
                #expect(
                    read.map { $0.properties.sorted { $0.name < $1.name } }
                        == [a, b, c].map { $0.properties.sorted { $0.name < $1.name } }
                )
                #expect(read.map(\.timestamp) == [a, b, c].map(\.timestamp))
            } else {
                #expect(read.map(\.rowKey) == ["a", "b", "c"])
                #expect(read[1].timestamp == b.timestamp)
            }
        }
    }

    @Test("the rewrite between files leaves a complete file")
    func rewriteFiles() throws {
        try withTemporaryDirectorySync { directory in
            let entities = (0..<3_000).map { index in
                Entity(
                    partitionKey: "p",
                    rowKey: "\(index)",
                    properties: [Property("N\(index % 100 == 0 ? index / 100 : 0)", .int64(Int64(index)))]
                )
            }
            var formatter = try CSVFormatter(.init(typed: true))
            var out: [UInt8] = []
            for entity in entities { try formatter.append(entity, into: &out) }
            formatter.end(into: &out)
            #expect(formatter.headerIsIncomplete)
            try writeFile(directory + "/partial.csv", out)
            try formatter.rewriteWithFinalHeader(
                inputPath: directory + "/partial.csv",
                outputPath: directory + "/final.csv"
            )
            #expect(try csvEntities(readFile(directory + "/final.csv")) == entities)
        }
    }

    @Test(
        "names CSV reserves cannot be properties (a name ending in ' (UTC)', and an empty one, were found by Fuzz/run: the reader refuses them)"
    )
    func reservedNames() throws {
        for name in ["Timestamp", "RowKey", "Cost@type", "Name (UTC)", ""] {
            let entity = Entity(partitionKey: "p", rowKey: "r", properties: [Property(name, .string("x"))])
            let error = #expect(throws: FormatError.self) { try csvBytes([entity]) }
            #expect(error?.keys?.rowKey == "r")
        }
        #expect(throws: FormatError.self) { try CSVFormatter(.init(columns: ["A", "A"])) }
        #expect(throws: FormatError.self) { try CSVFormatter(.init(columns: ["A@type"])) }
        #expect(throws: FormatError.self) { try CSVFormatter(.init(delimiter: UInt8(ascii: "\""))) }
    }

    @Test(
        "more columns than the reader takes are refused, not written (found by a fuzz run: 600 properties as typed CSV)"
    )
    func tooManyColumns() throws {
        func entity(_ count: Int) -> Entity {
            Entity(
                partitionKey: "p",
                rowKey: "r",
                properties: (0..<count).map { Property("P\($0)", .int32(Int32($0))) }
            )
        }
        var typed = CSVFormatter.Options()
        typed.typed = true
        // PartitionKey, RowKey, Timestamp, then a value and a type column per property: 3 + 2 × 510 fits.
        let fits = try csvBytes([entity(510)], typed)
        #expect(try csvEntities(fits).count == 1)
        let error = #expect(throws: FormatError.self) { try csvBytes([entity(511)], typed) }
        #expect(error?.reason.contains("1025 columns") == true, "\(String(describing: error))")
        #expect(error?.keys?.rowKey == "r")
        #expect(try csvBytes([entity(1022)]).count > 0)
        #expect(throws: FormatError.self) { try csvBytes([entity(1023)]) }
    }
}
