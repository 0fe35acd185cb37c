import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// A large Atom feed is cut into pieces that two threads parse at once (``AtomFeedSplitter``,
/// ``PrefetchingFileReader``). Whatever the cuts, the entities, their lines and the first error must
/// be exactly what one reader gives on the whole feed.
@Suite("Atom feeds read in pieces")
struct AtomPiecesTests {
    /// A feed of several entries as the formatter writes it, one property per line.
    static let feed: String = {
        let entities = (0..<6).map { index in
            Entity(
                partitionKey: "Events",
                rowKey: "row \(index) 'quoted' & <b>",
                properties: SampleProperties.everyType
            )
        }
        return String(decoding: try! Atom.write(entities), as: UTF8.self)
    }()

    /// The feed with `text` in place of the first `target` after the `skip`-th entry start.
    static func feed(replacing target: String, with text: String, inEntry entry: Int = 3) -> String {
        var parts = feed.components(separatedBy: "<entry")
        parts[entry] = parts[entry].replacingFirst(target, with: text)
        return parts.joined(separator: "<entry")
    }

    /// Documents that read, with the constructs a cut must not fall inside.
    static let goodDocuments: [(String, String)] = [
        ("formatter feed", feed),
        // A missing fixture reads as no XML at all, so the test fails; it never passes on nothing.
        (
            "recorded Azure feed",
            (try? String(
                contentsOfFile: TestPaths.azureFixtures + "/table-atom-query-entities-feed.xml",
                encoding: .utf8
            )) ?? "fixture missing"
        ),
        (
            "comments, CDATA and instructions holding end tags",
            feed(
                replacing: "<d:Empty/>",
                with: "<d:Empty><![CDATA[</entry></feed>]]></d:Empty><!-- </entry> --><?pi </entry>?>"
            )
            .replacingFirst("<entry", with: "<!-- <entry> --><link rel=\"x\" href=\"a>b\"/><entry")
        ),
        (
            "root start tag over lines (CRLF), byte order mark",
            "\u{FEFF}<?xml version=\"1.0\"\r\n encoding=\"UTF-8\"?>\r\n"
                + String(feed.drop { $0 != "\n" }.dropFirst()).replacingFirst(
                    "<feed ",
                    with: "<feed\r\n  lang=\"a\r\nb\" "
                )
        ),
        (
            "prefixed root",
            feed.replacingFirst("<feed ", with: "<a:feed xmlns:a=\"http://www.w3.org/2005/Atom\" ").replacingFirst(
                "</feed>",
                with: "</a:feed>"
            )
        ),
        ("entries on one line", feed.replacingOccurrences(of: "\n", with: "")),
        (
            "a single entry",
            "<entry \(Atom.namespaces)><content><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey></m:properties></content></entry>"
        ),
        ("an empty feed", "<feed \(Atom.namespaces)/>"),
        ("declared Latin-1 (read whole)", feed.replacingFirst("encoding=\"utf-8\"", with: "encoding=\"ISO-8859-1\"")),
    ]

    /// Documents with a problem in a later entry, so that the pieces before it read well.
    static let badDocuments: [(String, [UInt8])] = {
        let cases: [(String, String)] = [
            ("mismatched end tag", feed(replacing: "<d:Empty/>", with: "<d:Empty></d:empty>")),
            ("bare ampersand", feed(replacing: "<d:Empty/>", with: "<d:Empty>a & b</d:Empty>")),
            ("an unterminated comment", feed(replacing: "<d:Empty/>", with: "<!-- never closed")),
            ("an unterminated CDATA section", feed(replacing: "<d:Empty/>", with: "<![CDATA[ never closed")),
            ("a DOCTYPE inside an entry", feed(replacing: "<d:Empty/>", with: "<!DOCTYPE x>")),
            ("an element inside a value", feed(replacing: "<d:Empty/>", with: "<d:Empty><entry/></d:Empty>")),
            ("a stray end tag", feed(replacing: "</content>", with: "</content></entry>")),
            ("truncated in a later entry", String(feed.prefix(feed.count * 2 / 3))),
            ("truncated after an entry", String(feed[..<feed.range(of: "</feed>")!.lowerBound])),
            ("content after the root", feed + "<feed/>"),
            ("an undeclared prefix", feed(replacing: "<d:Empty/>", with: "<x:y/>")),
            ("a bad Int32", feed(replacing: ">2147483647<", with: ">2147483648<")),
            (
                "a DOCTYPE",
                "<?xml version=\"1.0\"?>\n<!DOCTYPE feed [<!ENTITY a \"b\">]>\n" + feed.drop { $0 != "\n" }.dropFirst()
            ),
            // Fuzzer findings: the errors must not depend on where the feed is cut.
            (
                "a bad Int32, then an undeclared prefix in the next entry",
                feed(replacing: ">2147483647<", with: ">2147483648<").components(separatedBy: "<entry").enumerated()
                    .map { $0.offset == 4 ? $0.element.replacingFirst("<d:Empty/>", with: "<x:y/>") : $0.element }
                    .joined(separator: "<entry")
            ),
            (
                "a bad Int32, then a mismatched tag in the next entry",
                feed(replacing: ">2147483647<", with: ">2147483648<").components(separatedBy: "<entry").enumerated()
                    .map {
                        $0.offset == 4
                            ? $0.element.replacingFirst("<d:Empty/>", with: "<d:Empty></d:empty>") : $0.element
                    }.joined(separator: "<entry")
            ),
            (
                "a missing RowKey, then an XML error in the next entry",
                feed(replacing: "<d:RowKey>", with: "<d:Other>").replacingFirst("</d:RowKey>", with: "</d:Other>")
                    .components(separatedBy: "<entry").enumerated()
                    .map {
                        $0.offset == 4
                            ? $0.element.replacingFirst("<d:Empty/>", with: "<d:Empty>a & b</d:Empty>") : $0.element
                    }.joined(separator: "<entry")
            ),
            (
                "an unterminated CDATA section in the first entry",
                feed(replacing: "<d:Empty/>", with: "<![CDATA[ never closed", inEntry: 1)
            ),
            ("an unterminated CDATA section at the end", String(feed.dropLast(30)) + "<![CDATA[ x"),
            ("a root that is no feed", "<feeds \(Atom.namespaces)><entry/></feeds>"),
            // libxml2 counts columns in characters: a piece that starts within a line after a two-byte
            // character must too (a fuzz finding: the column was one too large).
            (
                "on one line, two-byte characters before a mismatched end tag",
                feed(replacing: "<d:Empty/>", with: "<d:Empty></d:empty>").replacingOccurrences(of: "\n", with: "")
                    .replacingOccurrences(of: "row ", with: "rów ")
            ),
            // The same for what the tag screen finds: a tag refused for its attributes, a comment
            // that never ends.
            (
                "on one line, two-byte characters before a tag with too many attributes",
                feed(replacing: "<d:Empty/>", with: "<d:Empty/><x " + Atom.attributes(1001) + "/>")
                    .replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "row ", with: "rów ")
            ),
            (
                "on one line, two-byte characters before a comment that never ends",
                feed(replacing: "<d:Empty/>", with: "<!-- ").replacingOccurrences(of: "\n", with: "")
                    .replacingOccurrences(of: "row ", with: "rów ")
            ),
        ]
        return cases.map { ($0.0, Array($0.1.utf8)) }
            + [
                (
                    "invalid UTF-8",
                    PieceReading.invalidUTF8(feed(replacing: "<d:Empty/>", with: "<d:Empty>~~</d:Empty>"))
                )
            ]
    }()

    @Test("entities and their lines are those of one reader", arguments: [1, 700, 1 << 20])
    func sameEntities(pieceSize: Int) throws {
        let counts = try PieceReading.expectSameEntities(
            Self.goodDocuments,
            fileName: "feed.atom",
            pieceSize: pieceSize
        )
        for (name, count) in counts { #expect(count > 0 || name == "an empty feed", "\(name)") }
    }

    @Test("the first error is that of one reader: reason, line and column", arguments: [1, 700, 3000])
    func sameError(pieceSize: Int) throws {
        try PieceReading.expectSameError(Self.badDocuments, fileName: "feed.atom", pieceSize: pieceSize)
    }

    @Test("the feed is cut between entries, and the pieces hold all its bytes")
    func cuts() throws {
        let input = ByteInput(name: "feed.atom", bytes: Array(Self.feed.utf8))
        let pieces = try PieceReading.cuts(AtomFeedSplitter(input: input, pieceSize: 1)).map(\.bytes)
        #expect(pieces.count == 6 + 4 + 1)  // after each of 4 feed elements and 6 entries; then the end tag
        let prefixLength = pieces[1].firstIndex(of: UInt8(ascii: "\n"))! + 1
        var joined = pieces[0].dropLast("</feed>".utf8.count)
        for piece in pieces.dropFirst().dropLast() {
            joined += piece.dropFirst(prefixLength).dropLast("</feed>".utf8.count)
        }
        joined += pieces.last!.dropFirst(prefixLength)
        #expect(joined.elementsEqual(Self.feed.utf8))
    }

    @Test(
        "what it cannot cut is one piece, read as a stream",
        arguments: [
            "<!DOCTYPE feed><feed/>", "<entry xmlns=\"http://www.w3.org/2005/Atom\"><id/><title/></entry>",
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"/>",
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><feed><entry/><entry/></feed>",
        ]
    )
    func uncut(text: String) throws {
        let splitter = AtomFeedSplitter(input: ByteInput(name: "x.atom", bytes: Array(text.utf8)), pieceSize: 1)
        let piece = try #require(try splitter.nextPiece())
        #expect(piece.length == nil && piece.origin == .start)
        #expect(try splitter.nextPiece() == nil)
    }

    @Test("a consumer that stops early stops every reading thread")
    func earlyStop() throws {
        let entities = (0..<5000).map {
            Entity(partitionKey: "p", rowKey: "r\($0)", properties: [Property("A", .int32(Int32($0)))])
        }
        try withTemporaryDirectorySync { directory in
            let path = directory + "/big.atom"
            try writeFile(path, try Atom.write(entities))
            var reader = PrefetchingFileReader(paths: [path], options: .init())
            reader.pieceReaders = 3
            reader.pieceSize = 100
            var seen = 0
            struct Enough: Error {}
            #expect(throws: Enough.self) {
                // PrefetchingFileReader is no Sequence: its forEach reads on threads of its own.
                // swift-format-ignore: ReplaceForEachWithForLoop
                try reader.forEach { _, _ in
                    seen += 1
                    if seen == 1234 { throw Enough() }
                }
            }
            #expect(seen == 1234)
        }
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { fatalError("no \(target) in the test document") }
        return replacingCharacters(in: range, with: replacement)
    }
}
