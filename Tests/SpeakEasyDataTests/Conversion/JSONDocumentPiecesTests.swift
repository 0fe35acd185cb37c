import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// A large JSON document's array of entities is cut into pieces that two threads parse at once
/// (``JSONDocumentSplitter``, ``PrefetchingFileReader``). Whatever the cuts, the entities, their lines
/// and the first error must be exactly what one reader gives on the whole document.
@Suite("JSON documents read in pieces")
struct JSONDocumentPiecesTests {
    /// Entities whose strings hold what the structural scan must see through: braces, brackets, commas,
    /// quotes and backslashes.
    static let entities = (0..<6).map { index in
        Entity(partitionKey: "Events", rowKey: #"row \#(index) },{ ] \" \\"#, properties: SampleProperties.everyType)
    }

    /// The document as the formatter writes it.
    static let document = String(
        decoding: try! EntityFiles.bytes(of: entities, options: .init(format: .json)),
        as: UTF8.self
    )

    /// The entity objects alone, each as the formatter writes it on an NDJSON line.
    static let objects = String(
        decoding: try! EntityFiles.bytes(of: entities, options: .init(format: .ndjson)),
        as: UTF8.self
    ).split(separator: "\n").map(String.init)

    /// A feed on one line, as Azure serves it.
    static func feed(_ objects: [String], after: String = "") -> String {
        #"{"odata.metadata":"https://x.table.core.windows.net/$metadata#Events","value":["#
            + objects.joined(separator: ",") + "]" + after + "}"
    }

    /// The objects with the `index`-th replaced by `text`.
    static func objects(replacing index: Int, with text: String) -> [String] {
        var all = objects
        all[index] = text
        return all
    }

    static let goodDocuments: [(String, String)] = [
        ("formatter document", document),
        ("a one-line feed", feed(objects)),
        ("a top-level array", "[" + objects.joined(separator: ",") + "]"),
        (
            "printed over many lines",
            "{\n  \"odata.metadata\" : \"m\",\r\n  \"value\" : [\n    "
                + objects.joined(separator: " ,\n\n    ") + "\n  ]\n}\n"
        ),
        ("a byte order mark", "\u{FEFF}" + feed(objects)),
        ("members after the array", feed(objects, after: #","odata.nextLink":"n""#)),
        ("envelope values of every kind", #"{"a":[1,{"b":"]}"}],"c":null,"d":-1.5e3,"value":["# + objects[0] + "]}"),
        ("an empty array", #"{"value":[]}"#),
        ("a bare entity", objects[0]),
        (
            "a long opening, which is not cut",
            #"{"odata.metadata":""# + String(repeating: "m", count: 70_000) + #"","value":["# + objects[2] + "]}"
        ),
        ("an escaped envelope name, which is not cut", #"{"odata\u002Emetadata":"m","value":["# + objects[1] + "]}"),
    ]

    static let badDocuments: [(String, [UInt8])] = {
        let cases: [(String, String)] = [
            ("a name given again after the array", feed(objects, after: #","odata.metadata":"again""#)),
            ("a number among the entities", feed(objects(replacing: 3, with: "1"))),
            ("two commas", feed(objects(replacing: 3, with: "," + objects[3]))),
            ("no comma", feed(objects(replacing: 3, with: objects[3] + " " + objects[4]))),
            ("a comma before the end", feed(objects + [""])),
            ("a nested object", feed(objects(replacing: 2, with: #"{"PartitionKey":"p","RowKey":"r","A":{"b":1}}"#))),
            (
                "a raw line break in a string",
                feed(objects(replacing: 4, with: #"{"PartitionKey":"p\#n","RowKey":"r"}"#))
            ),
            ("mismatched brackets", feed(objects(replacing: 2, with: #"{"PartitionKey":"p","RowKey":"r","A":[1}}"#))),
            ("a truncated document", String(feed(objects).dropLast(40))),
            ("an unterminated string at the end", String(feed(objects).dropLast(2)) + #","PartitionKey":"p"#),
            (
                "a number that does not fit",
                feed(
                    objects(
                        replacing: 4,
                        with: #"{"PartitionKey":"p","RowKey":"r","N@odata.type":"Edm.Int32","N":2147483648}"#
                    )
                )
            ),
            ("content after the document", feed(objects) + " {}"),
            ("a second value array", feed(objects, after: #","value":[]"#)),
            ("an error printed on a later line", document.replacingOccurrences(of: #""row 4"#, with: #""row 4\x"#)),
        ]
        return cases.map { ($0.0, Array($0.1.utf8)) }
            + [
                (
                    "invalid UTF-8",
                    PieceReading.invalidUTF8(feed(objects(replacing: 3, with: #"{"PartitionKey":"p","RowKey":"~~"}"#)))
                )
            ]
    }()

    @Test("entities and their lines are those of one reader", arguments: [1, 700, 1 << 20])
    func sameEntities(pieceSize: Int) throws {
        let counts = try PieceReading.expectSameEntities(
            Self.goodDocuments,
            fileName: "events.json",
            pieceSize: pieceSize
        )
        #expect(counts["formatter document"] == 6)
        #expect(counts["a one-line feed"] == 6)
        #expect(counts["printed over many lines"] == 6)
        #expect(counts["an empty array"] == 0)
    }

    @Test("the first error is that of one reader: reason, line and column", arguments: [1, 700])
    func sameError(pieceSize: Int) throws {
        try PieceReading.expectSameError(Self.badDocuments, fileName: "events.json", pieceSize: pieceSize)
    }

    @Test("a feed is cut between entities, each piece a document, and the pieces hold every entity's bytes")
    func cuts() throws {
        let text = Self.feed(Self.objects)
        let cuts = try PieceReading.cuts(
            JSONDocumentSplitter(input: ByteInput(name: "x.json", bytes: Array(text.utf8)), pieceSize: 1)
        )
        let opening = Array(#"{"odata.metadata":"https://x.table.core.windows.net/$metadata#Events","value":["#.utf8)
        #expect(cuts.count == 6)
        #expect(cuts.first?.addedBytes == 0)
        #expect(cuts.dropFirst().allSatisfy { Array($0.bytes.prefix($0.addedBytes)) == opening })
        #expect(cuts.dropLast().allSatisfy { $0.bytes.suffix(2).elementsEqual("]}".utf8) })
        // Each piece is a document of its own, with the entities it cut.
        for (index, cut) in cuts.enumerated() {
            var reader = try EntityFiles.reader(for: ByteInput(name: "piece.json", bytes: cut.bytes), format: .json)
            var read: [Entity] = []
            while let entity = try reader.next() { read.append(entity) }
            #expect(read == [Self.entities[index]])
        }
    }
}
