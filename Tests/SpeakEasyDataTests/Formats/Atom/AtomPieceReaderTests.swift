import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// ``AtomPieceReader`` reads ordinary feeds with libxml2's SAX2 parser, and hands everything else to
/// the text reader (``AtomEntityReader``), which judges: the two must agree on every input. Every
/// test that reads Atom through `Atom.read` compares them; these check which of the two did the
/// reading, since a fast path that always gives up would agree too.
@Suite("Atom pieces read with SAX2")
struct AtomPieceReaderTests {
    static func read(_ bytes: [UInt8]) -> (outcome: String, byTextReader: Bool) {
        let reader = AtomPieceReader(bytes: bytes, source: "test.atom", origin: .start)
        let outcome = Atom.outcome(reader)
        let text = Atom.outcome(AtomEntityReader(input: ByteInput(name: "test.atom", bytes: bytes)))
        func describe(_ read: (entities: [Entity], lines: [Int], error: FormatError?)) -> String {
            "\(read.entities) lines \(read.lines) \(read.error.map(String.init(describing:)) ?? "")"
        }
        let described = describe(outcome)
        #expect(described == describe(text))
        return (described, reader.readByTextReader)
    }

    @Test("feeds as Azure and our formatter write them are read by SAX2, to the text reader's entities")
    func ordinaryFeeds() throws {
        let recorded = try readFile(TestPaths.azureFixtures + "/table-atom-query-entities-feed.xml")
        let entities = (0..<300).map { index in
            Entity(
                partitionKey: "Events",
                rowKey: "row \(index) 'quoted' & <b> \"etag\"",
                etag: "W/\"datetime'2026-01-01T00%3A00%3A00.1234567Z'\" & more",
                properties: SampleProperties.everyType
                    + [Property("Nothing", .string("")), Property("Spaces", .string("  \n\t  "))]
            )
        }
        for feed in [recorded, try Atom.write(entities)] {
            let (outcome, byTextReader) = Self.read(feed)
            #expect(!byTextReader)
            #expect(outcome.contains("PartitionKey") || outcome.contains("partitionKey"))
        }
    }

    @Test("CDATA, comments, references and nulls in values are read by SAX2")
    func valueSpellings() {
        let feed = Atom.feed(
            properties: """
                <d:A>x<![CDATA[<y> & ]]><!-- no -->z&amp;&#233;&#x1F600;<?pi ?>w</d:A>
                <d:B m:null="true">ignored</d:B>
                <d:C m:type="Edm.Int32">  </d:C>
                <d:D m:type="Int64" m:null="false">5</d:D>
                """
        ).replacingOccurrences(of: "<entry>", with: "<entry m:etag=\"a&amp;b&#38;c&quot;&lt;\">")
        let (outcome, byTextReader) = Self.read(Array(feed.utf8))
        #expect(!byTextReader)
        #expect(outcome.contains("Edm.Int32"))  // the error the text reader gives for "  "
    }

    @Test(
        "whatever the text reader reports on is read by the text reader",
        arguments: [
            ("malformed", Atom.feed(properties: "<d:A>a & b</d:A>")),
            ("an undeclared prefix", Atom.feed(properties: "<x:A/>")),
            ("an entry in a value", Atom.feed(properties: "<d:A><entry/></d:A>")),
            ("a property given twice", Atom.feed(properties: "<d:A>1</d:A><d:A>2</d:A>")),
            ("a key given twice", Atom.feed(properties: "<d:RowKey>2</d:RowKey>")),
            ("an unknown type", Atom.feed(properties: "<d:A m:type=\"Edm.Nope\">1</d:A>")),
            ("a bad null", Atom.feed(properties: "<d:A m:null=\"maybe\">1</d:A>")),
            ("a type with a reference", Atom.feed(properties: "<d:A m:type=\"Edm&#38;Int32\">1</d:A>")),
            ("a property in another namespace", Atom.feed(properties: "<m:A>1</m:A>")),
            ("a root entry", "<entry \(Atom.namespaces)><content><m:properties/></content></entry>"),
            (
                "a nested entry",
                Atom.feed(properties: "").replacingOccurrences(of: "<content", with: "<entry/><content")
            ),
            (
                "an entry below the feed's children",
                "<feed \(Atom.namespaces)><author><entry/></author></feed>"
            ),
            ("a DOCTYPE", "<!DOCTYPE feed>" + Atom.feed(properties: "").drop { $0 != "\n" }),
            ("a truncated feed", String(Atom.feed(properties: "").dropLast(9))),
            ("text over 1 MB", Atom.feed(properties: "<d:A>" + String(repeating: "x", count: 1 << 20 + 1) + "</d:A>")),
            (
                "an entry past line 65,535",
                Atom.feed(properties: "").replacingOccurrences(
                    of: "<entry>",
                    with: String(repeating: "\n", count: 70000) + "<entry>"
                )
            ),
        ]
    )
    func givesUp(name: String, feed: String) {
        #expect(Self.read(Array(feed.utf8)).byTextReader, "\(name)")
    }

    @Test("a tag with too many attributes ends the pieces: the rest is screened as a stream")
    func attributeBomb() throws {
        let entry =
            "<entry><content><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey></m:properties></content></entry>"
        let feed = "<feed \(Atom.namespaces)>\(entry)\(entry)<x \(Atom.attributes(1001))/>\(entry)</feed>"
        let splitter = AtomFeedSplitter(input: ByteInput(name: "x.atom", bytes: Array(feed.utf8)), pieceSize: 1)
        let first = try #require(try splitter.nextPiece())
        #expect(first.length != nil)
        var last = first
        while let piece = try splitter.nextPiece() { last = piece }
        #expect(last.length == nil)
        #expect(Atom.error(feed)?.reason.contains("more than 1000 attributes") == true)
    }
}
