import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// Large CSV of the plain layout is cut into pieces of whole records that two threads parse at once
/// (``CSVSplitter``, ``PrefetchingFileReader``). Whatever the cuts, the entities, their lines and the
/// first error must be exactly what one reader gives on the whole file.
@Suite("CSV read in pieces")
struct CSVPiecesTests {
    /// Records as the formatter writes them, with values that hold the delimiter, quotes and line
    /// breaks, so that cuts must tell a record's end from a line break inside a quoted field.
    static let records: String = {
        let entities = (0..<6).map { index in
            Entity(
                partitionKey: "Events",
                rowKey: "row \(index)",
                properties: [
                    Property("EventName", .string("Meetup \(index)")),
                    Property("EventLocation", .string("Chicago, IL")),
                    Property("EventDescription", .string("says \"hi\"\nand bye \(index)")),
                    Property("Room", .string("\"")),
                ]
            )
        }
        return String(decoding: try! EntityFiles.bytes(of: entities, options: .init(format: .csv)), as: UTF8.self)
    }()

    /// The records, then `record` (and its line end), then one more good record.
    static func records(then record: String) -> String {
        records + record + "\r\n" + "Events,row 8,Meetup,\"Chicago, IL\",x,y\r\n"
    }

    static let goodDocuments: [(String, String)] = [
        ("formatter records (CRLF)", records),
        ("LF line ends", records.replacingOccurrences(of: "\r\n", with: "\n")),
        ("CRLF inside quoted values too", records.replacingOccurrences(of: "hi\"\"\n", with: "hi\"\"\r\n")),
        ("blank lines between records", records.replacingOccurrences(of: "\nEvents,", with: "\n\n\nEvents,")),
        ("a byte order mark", "\u{FEFF}" + records),
        ("no line break at the end", String(records.dropLast())),
        ("a header over two lines", records.replacingOccurrences(of: ",Room\n", with: ",\"Room\nNumber\"\n")),
        ("a lone CR ending a record", records.replacingOccurrences(of: "\r\nEvents,row 3", with: "\rEvents,row 3")),
        ("typed CSV, types on the first row only", typedFirstRowOnly),
    ]

    /// Storage Explorer's typed layout, where later rows inherit the first row's types: not cut.
    static let typedFirstRowOnly: String = {
        var text = "PartitionKey,RowKey,N,N@type\r\nEvents,r0,1,Edm.Int32\r\n"
        for index in 1..<6 { text += "Events,r\(index),\(index),\r\n" }
        return text
    }()

    static let badDocuments: [(String, [UInt8])] = {
        let cases: [(String, String)] = [
            ("a quote that is never closed", records(then: "Events,row 9,\"Meetup,Chicago,x,y")),
            ("a quote inside an unquoted field", records(then: "Events,row 9,Meet\"up,Chicago,x,y")),
            ("a character after a closing quote", records(then: "Events,row 9,\"Meetup\"x,Chicago,x,y")),
            ("a row with a field too many", records(then: "Events,row 9,a,b,c,d,e")),
            ("a row with a field too few", records(then: "Events,row 9,a,b,c")),
            ("a truncated quoted field", String(records.dropLast(12))),
            (
                "a header of 1,025 columns",
                "PartitionKey,RowKey," + String(repeating: "c,", count: 1022) + "d\r\n"
                    + records.drop { $0 != "\n" }.dropFirst()
            ),
        ]
        return cases.map { ($0.0, Array($0.1.utf8)) } + [
            ("invalid UTF-8", PieceReading.invalidUTF8(records(then: "Events,row 9,~~,b,c,d")))
        ]
    }()

    @Test("entities and their lines are those of one reader", arguments: [1, 100, 1 << 20])
    func sameEntities(pieceSize: Int) throws {
        let counts = try PieceReading.expectSameEntities(
            Self.goodDocuments,
            fileName: "events.csv",
            pieceSize: pieceSize
        )
        for (name, count) in counts { #expect(count == 6, "\(name)") }
    }

    @Test("the first error is that of one reader: reason, line and column", arguments: [1, 100])
    func sameError(pieceSize: Int) throws {
        try PieceReading.expectSameError(Self.badDocuments, fileName: "events.csv", pieceSize: pieceSize)
    }

    /// The pieces `text` is cut into at every place a cut is possible, without their added headers.
    static func pieces(_ text: String) throws -> (pieces: [ArraySlice<UInt8>], lines: [Int]) {
        let cuts = try PieceReading.cuts(
            CSVSplitter(input: ByteInput(name: "x.csv", bytes: Array(text.utf8)), pieceSize: 1)
        )
        return (cuts.map(\.fileBytes), cuts.map(\.fileLine))
    }

    @Test("records are cut between records only, and the pieces hold all the bytes")
    func cuts() throws {
        let (pieces, lines) = try Self.pieces(Self.records)
        // The header alone (its line end is the first place to cut), then one record a piece.
        #expect(pieces.count == 7)
        #expect(pieces.dropFirst().allSatisfy { $0.starts(with: Array("Events,".utf8)) })
        #expect(pieces.joined().elementsEqual(Self.records.utf8))
        #expect(lines == [1, 2, 4, 6, 8, 10, 12])
    }

    @Test("typed CSV, a lone CR and a header over 64 KiB stop the cutting: the rest is one piece")
    func notCut() throws {
        #expect(try Self.pieces(Self.typedFirstRowOnly).pieces.count == 1)
        // A header is copied into every piece and parsed there again: a long one is not.
        let wideHeader =
            "PartitionKey,RowKey,"
            + (0..<700).map { "C\($0)" + String(repeating: "x", count: 100) }.joined(separator: ",") + "\r\n"
        let wide = wideHeader + (0..<6).map { "Events,r\($0)" + String(repeating: ",v", count: 700) + "\r\n" }.joined()
        #expect(try Self.pieces(wide).pieces.count == 1)
        #expect(
            try Self.pieces(wide.replacingOccurrences(of: String(repeating: "x", count: 100), with: "")).pieces.count
                == 7
        )
        // The header, two records, then the rest from the record the lone CR ends.
        let loneCR = Self.records.replacingOccurrences(of: "\nEvents,row 3", with: "\rEvents,row 3")
        let (pieces, _) = try Self.pieces(loneCR)
        #expect(pieces.count == 4)
        #expect(pieces.joined().elementsEqual(loneCR.utf8))
    }
}
