import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// Large NDJSON is cut into pieces of whole lines that two threads parse at once
/// (``JSONLinesSplitter``, ``PrefetchingFileReader``). Whatever the cuts, the entities, their lines
/// and the first error must be exactly what one reader gives on the whole file.
@Suite("NDJSON read in pieces")
struct JSONLinesPiecesTests {
    /// Lines of entities as the formatter writes them.
    static let lines: String = {
        let entities = (0..<6).map { index in
            Entity(partitionKey: "Events", rowKey: "row \(index) }\n{", properties: SampleProperties.everyType)
        }
        return String(decoding: try! EntityFiles.bytes(of: entities, options: .init(format: .ndjson)), as: UTF8.self)
    }()

    /// The lines with the `line`-th (from 0) replaced by `text`.
    static func lines(replacing line: Int, with text: String) -> String {
        var all = lines.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        all[line] = text
        return all.joined(separator: "\n")
    }

    static let goodDocuments: [(String, String)] = [
        ("formatter lines", lines),
        ("CRLF, blank lines and spaces between objects", lines.replacingOccurrences(of: "\n", with: " \r\n\r\n")),
        ("a byte order mark", "\u{FEFF}" + lines),
        ("no line break at the end", String(lines.dropLast())),
    ]

    /// Objects over several lines, each of them starting a line: not NDJSON, but cut all the same.
    static let spreadObjects = lines.replacingOccurrences(of: ",\"", with: ",\n  \"").replacingOccurrences(
        of: "}\n",
        with: "\n}\n"
    )

    static let badDocuments: [(String, [UInt8])] = {
        let cases: [(String, String)] = [
            (
                "a raw line break in a string, before a brace",
                lines(replacing: 3, with: #"{"PartitionKey":"p"# + "\n" + #"{","RowKey":"r"}"#)
            ),
            (
                "a nested object ending a line",
                lines(replacing: 3, with: #"{"PartitionKey":"p","RowKey":"r","A":{"b":1}"# + "\n" + #"{"c":2}}"#)
            ),
            ("a truncated last line", String(lines.dropLast(40))),
            ("an array line", lines(replacing: 2, with: "[1,2]")),
            ("two closing braces", lines(replacing: 2, with: #"{"PartitionKey":"p","RowKey":"r"}}"#)),
            (
                "a number that does not fit",
                lines(
                    replacing: 4,
                    with: #"{"PartitionKey":"p","RowKey":"r","N@odata.type":"Edm.Int32","N":2147483648}"#
                )
            ),
            // Fuzzer finding: "unterminated object" at 1:1 with a cut inside the object, its second line's error without.
            ("objects over several lines", spreadObjects),
            (
                "an object's second line starting with a brace",
                lines(replacing: 2, with: #"{"PartitionKey":"p","# + "\n" + #"{"RowKey":"r"}"#)
            ),
            (
                "two objects on a line",
                lines(replacing: 2, with: #"{"PartitionKey":"p","RowKey":"r"} {"PartitionKey":"p","RowKey":"s"}"#)
            ),
            ("a BOM on a later line", lines(replacing: 4, with: "\u{FEFF}" + #"{"PartitionKey":"p","RowKey":"r"}"#)),
        ]
        return cases.map { ($0.0, Array($0.1.utf8)) }
            + [
                (
                    "invalid UTF-8",
                    PieceReading.invalidUTF8(lines(replacing: 3, with: #"{"PartitionKey":"p","RowKey":"~~"}"#))
                )
            ]
    }()

    @Test("entities and their lines are those of one reader", arguments: [1, 700, 1 << 20])
    func sameEntities(pieceSize: Int) throws {
        let counts = try PieceReading.expectSameEntities(
            Self.goodDocuments,
            fileName: "events.ndjson",
            pieceSize: pieceSize
        )
        for (name, count) in counts { #expect(count == 6, "\(name)") }
    }

    @Test("the first error is that of one reader: reason, line and column", arguments: [1, 700])
    func sameError(pieceSize: Int) throws {
        try PieceReading.expectSameError(Self.badDocuments, fileName: "events.ndjson", pieceSize: pieceSize)
    }

    @Test("lines are cut between objects only, and the pieces hold all the bytes")
    func cuts() throws {
        let text = Self.spreadObjects
        let cuts = try PieceReading.cuts(
            JSONLinesSplitter(input: ByteInput(name: "x.ndjson", bytes: Array(text.utf8)), pieceSize: 1)
        )
        let (pieces, lines) = (cuts.map(\.bytes), cuts.map(\.fileLine))
        #expect(pieces.count == 6)
        #expect(pieces.allSatisfy { $0.first == UInt8(ascii: "{") })
        #expect(pieces.joined().elementsEqual(text.utf8))
        #expect(lines.first == 1 && lines == lines.sorted() && Set(lines).count == 6)
    }
}
