import SpeakEasyData
import Testing

/// Bad input is a ``FormatError`` (exit 65) that says where: line and column for XML syntax, the line,
/// property and entity keys for a value.
@Suite("Atom entity reader: bad input")
struct AtomBadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var line: Int
        var column: Int?
        var keys: (String, String)?
        var reason: String

        init(
            _ name: String,
            _ text: String,
            line: Int,
            column: Int? = nil,
            keys: (String, String)? = nil,
            reason: String
        ) {
            self.init(name, Array(text.utf8), line: line, column: column, keys: keys, reason: reason)
        }

        init(
            _ name: String,
            _ bytes: [UInt8],
            line: Int,
            column: Int? = nil,
            keys: (String, String)? = nil,
            reason: String
        ) {
            self.name = name
            self.bytes = bytes
            self.line = line
            self.column = column
            self.keys = keys
            self.reason = reason
        }

        var testDescription: String { name }
    }

    /// A feed whose one entry has these lines inside `<m:properties>` (the first at line 6).
    static func entry(_ properties: String) -> String { Atom.feed(properties: properties, keys: false) }

    /// An entry whose RowKey holds the bytes C3 28 (a lead byte without its continuation).
    static var invalidUTF8: [UInt8] {
        let text = entry("        <d:PartitionKey>p</d:PartitionKey>\n        <d:RowKey>r~~</d:RowKey>")
        var bytes = Array(text.utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "~"))!
        bytes[at] = 0xC3
        bytes[at + 1] = 0x28
        return bytes
    }

    static let cases: [Case] = [
        Case("empty input", "", line: 1, column: 1, reason: "the document is empty"),
        Case("only a declaration", "<?xml version=\"1.0\"?>\n", line: 2, column: 1, reason: "the document is empty"),
        Case(
            "truncated in a tag",
            String(Atom.feed(properties: "").utf8.prefix(150))!,
            line: 2,
            column: 95,
            reason: "AttValue"
        ),
        Case(
            "truncated after an entry",
            "<feed \(Atom.namespaces)>\n<entry><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey></m:properties></entry>\n",
            line: 2,
            column: 101,
            reason: "ends before its root element is closed"
        ),
        Case(
            "truncated in a start tag",
            String(Atom.feed(properties: "").utf8.prefix(360))!,
            line: 7,
            column: 14,
            reason: "Couldn't find end of Start Tag"
        ),
        Case(
            "truncated between elements",
            String(Atom.feed(properties: "").utf8.prefix(350))!,
            line: 7,
            column: 4,
            reason: "ends before its root element is closed"
        ),
        Case(
            "mismatched end tag",
            entry("        <d:PartitionKey>p</d:PartitionKey>\n        <d:RowKey>r</d:Rowkey>"),
            line: 7,
            column: 31,
            reason: "tag mismatch: RowKey line 7 and Rowkey"
        ),
        Case(
            "undeclared prefix",
            "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <entry><x:properties/></entry></feed>",
            line: 2,
            column: 23,
            reason: "prefix x"
        ),
        Case(
            "bare ampersand in a value",
            entry("        <d:PartitionKey>a & b</d:PartitionKey>"),
            line: 6,
            column: 28,
            reason: "EntityRef: no name"
        ),
        Case(
            "content after the root",
            "<feed xmlns=\"http://www.w3.org/2005/Atom\"/>\n<feed/>",
            line: 2,
            column: 1,
            reason: "Extra content"
        ),
        Case("invalid UTF-8", invalidUTF8, line: 7, column: 20, reason: "UTF-8"),
        Case(
            "wrong root",
            "<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"/>",
            line: 2,
            reason: "root element is <html>"
        ),
        Case("Atom root in no namespace", "<feed><entry/></feed>", line: 1, reason: "no namespace"),
        // libxml2 parses the root and then the bad character in one read, and hands out neither; the
        // root comes first in the document, so it is what is reported (a fuzz finding).
        Case(
            "root in no namespace, a bad character lines on",
            "<feed>\n<title>t</title>\n<id>\u{0F}</id>\n</feed>",
            line: 1,
            reason: "the root element is <feed> (no namespace)"
        ),
        Case(
            "root in a misspelt namespace, a bad character next line",
            "<feed xmlns=\"http://www.w3.org/2005n/Atom\">\n<id>\u{02}</id></feed>",
            line: 1,
            reason: "namespace http://www.w3.org/2005n/Atom"
        ),
        Case(
            "root in a misspelt namespace, a bad character on its line",
            "<feed xmlns=\"http://www.w3.org/2005n/Atom\"><id>\u{02}</id></feed>",
            line: 1,
            reason: "namespace http://www.w3.org/2005n/Atom"
        ),
        Case(
            "an unknown m:type",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey>\n        <d:RowKey>r</d:RowKey>\n        <d:Price m:type=\"Edm.Decimal\">1.5</d:Price>"
            ),
            line: 8,
            keys: ("p", "r"),
            reason: "Price has an unknown m:type \"Edm.Decimal\""
        ),
        Case(
            "Int32 out of range (keys after the property)",
            entry(
                "        <d:Count m:type=\"Edm.Int32\">2147483648</d:Count>\n        <d:PartitionKey>p</d:PartitionKey>\n        <d:RowKey>r</d:RowKey>"
            ),
            line: 6,
            keys: ("p", "r"),
            reason: "Count: '2147483648' is not a valid Edm.Int32"
        ),
        Case(
            "Int64 with a fraction",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:Big m:type=\"Edm.Int64\">1.0</d:Big>"
            ),
            line: 7,
            keys: ("p", "r"),
            reason: "not a valid Edm.Int64"
        ),
        Case(
            "Double that is not a number",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:D m:type=\"Edm.Double\">0x10</d:D>"
            ),
            line: 7,
            keys: ("p", "r"),
            reason: "not a valid Edm.Double"
        ),
        Case(
            "Boolean yes",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:B m:type=\"Edm.Boolean\">yes</d:B>"
            ),
            line: 7,
            keys: ("p", "r"),
            reason: "not a valid Edm.Boolean"
        ),
        Case(
            "DateTime with 8 digits",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:T m:type=\"Edm.DateTime\">2012-11-10T03:04:05.12345678Z</d:T>"
            ),
            line: 7,
            keys: ("p", "r"),
            reason: "not a valid Edm.DateTime"
        ),
        Case(
            "Guid too short",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:G m:type=\"Edm.Guid\">c9da6455-213d</d:G>"
            ),
            line: 7,
            keys: ("p", "r"),
            reason: "not a valid Edm.Guid"
        ),
        Case(
            "Binary not base64",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:Bin m:type=\"Edm.Binary\">AAF!</d:Bin>"
            ),
            line: 7,
            keys: ("p", "r"),
            reason: "not a valid Edm.Binary"
        ),
        Case(
            "Timestamp not a date",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:Timestamp m:type=\"Edm.DateTime\">yesterday</d:Timestamp>"
            ),
            line: 7,
            keys: ("p", "r"),
            reason: "Timestamp 'yesterday' is not an Edm.DateTime"
        ),
        Case(
            "typed PartitionKey",
            entry("        <d:PartitionKey m:type=\"Edm.Int32\">1</d:PartitionKey><d:RowKey>r</d:RowKey>"),
            line: 6,
            reason: "PartitionKey must be an Edm.String"
        ),
        Case("missing PartitionKey", entry("        <d:RowKey>r</d:RowKey>"), line: 3, reason: "no PartitionKey"),
        Case("missing RowKey", entry("        <d:PartitionKey>p</d:PartitionKey>"), line: 3, reason: "no RowKey"),
        Case(
            "null PartitionKey",
            entry("        <d:PartitionKey m:null=\"true\"/><d:RowKey>r</d:RowKey>"),
            line: 3,
            reason: "no PartitionKey"
        ),
        Case(
            "no m:properties",
            "<entry xmlns=\"http://www.w3.org/2005/Atom\"><title/></entry>",
            line: 1,
            reason: "no PartitionKey"
        ),
        Case(
            "duplicate property",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:A>1</d:A>\n        <d:A>2</d:A>"
            ),
            line: 8,
            keys: ("p", "r"),
            reason: "A is given twice"
        ),
        Case(
            "duplicate RowKey",
            entry("        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:RowKey>s</d:RowKey>"),
            line: 7,
            keys: ("p", "r"),
            reason: "RowKey is given twice"
        ),
        Case(
            "bad m:null",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:A m:null=\"maybe\">1</d:A>"
            ),
            line: 7,
            keys: ("p", "r"),
            reason: "m:null=\"maybe\""
        ),
        Case(
            "a property holding an element",
            entry("        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:A><d:B>1</d:B></d:A>"),
            line: 7,
            keys: ("p", "r"),
            reason: "A contains an element"
        ),
        Case(
            "a property in another namespace",
            entry("        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <m:A>1</m:A>"),
            line: 7,
            keys: ("p", "r"),
            reason:
                "<m:A> (namespace http://schemas.microsoft.com/ado/2007/08/dataservices/metadata) in <m:properties> is not in the data namespace"
        ),
        // Fuzzer findings. Atom reads typed values as JSON and CSV do: no white space around them.
        Case(
            "an Int32 with spaces",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:N m:type=\"Edm.Int32\"> 5 </d:N>"
            ),
            line: 7,
            keys: ("p", "r"),
            reason: "N: ' 5 ' is not a valid Edm.Int32"
        ),
        Case(
            "a Double with a space before INF",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:D m:type=\"Edm.Double\"> INF</d:D>"
            ),
            line: 7,
            keys: ("p", "r"),
            reason: "not a valid Edm.Double"
        ),
        Case(
            "a Double out of range",
            entry(
                "        <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n        <d:D m:type=\"Edm.Double\">1e999</d:D>"
            ),
            line: 7,
            keys: ("p", "r"),
            reason: "not a valid Edm.Double (out of range)"
        ),
        Case(
            "an entry inside an entry",
            "<feed \(Atom.namespaces)>\n<entry><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey></m:properties>\n<entry/></entry></feed>",
            line: 3,
            reason: "an <entry> inside an <entry>"
        ),
        Case(
            "an entry inside another element of the feed",
            "<feed \(Atom.namespaces)>\n<author>\n<entry/></author></feed>",
            line: 3,
            reason: "entries belong directly in the <feed>"
        ),
        Case(
            "an unterminated CDATA section, told where it starts",
            "<feed \(Atom.namespaces)>\n<entry><m:properties>\n  <d:PartitionKey><![CDATA[p</d:PartitionKey></m:properties></entry>\n</feed>\n",
            line: 3,
            column: 19,
            reason: "ends inside a CDATA section"
        ),
        Case(
            "100,000 attributes",
            "<feed \(Atom.namespaces)>\n  <entry " + Atom.attributes(100_000) + "/></feed>",
            line: 2,
            column: 3,
            reason: "more than 1000 attributes"
        ),
        // Columns count characters, as libxml2's do: "<title>éé</title>" is 17 columns (19 bytes).
        Case(
            "too many attributes after two-byte characters, at a column in characters",
            "<feed \(Atom.namespaces)>\n<title>éé</title><entry " + Atom.attributes(1001) + "/></feed>",
            line: 2,
            column: 18,
            reason: "more than 1000 attributes"
        ),
        Case(
            "a comment that never ends after two-byte characters, at a column in characters",
            "<feed \(Atom.namespaces)>\n<title>éé</title><!-- </feed>\n",
            line: 2,
            column: 18,
            reason: "ends inside a comment"
        ),
        Case(
            "a bad value before the tag with too many attributes comes first",
            "<feed \(Atom.namespaces)>\n<entry><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey><d:N m:type=\"Edm.Int32\">x</d:N></m:properties></entry>\n  <entry "
                + Atom.attributes(2000) + "/></feed>",
            line: 2,
            keys: ("p", "r"),
            reason: "not a valid Edm.Int32"
        ),
        Case(
            "an XML error before the tag with too many attributes comes first",
            "<feed \(Atom.namespaces)>\n<x></y>\n  <entry " + Atom.attributes(2000) + "/></feed>",
            line: 2,
            reason: "mismatch"
        ),
    ]

    @Test("is reported with where and why", arguments: cases)
    func badInput(_ test: Case) {
        guard let error = Atom.error(test.bytes) else {
            Issue.record("\(test.name) was accepted")
            return
        }
        #expect(error.source == "test.atom")
        #expect(error.kind == .malformedInput)
        #expect(error.line == test.line, "\(error)")
        if let column = test.column { #expect(error.column == column, "\(error)") }
        #expect(error.keys?.partitionKey == test.keys?.0 && error.keys?.rowKey == test.keys?.1, "\(error)")
        #expect(error.reason.contains(test.reason), "\(error)")
    }

    /// libxml2's text reader parses 512 bytes ahead of the node it hands out, and a read that meets a
    /// well-formedness error there fails without handing out what it parsed before the error. The
    /// reader goes on through those nodes in the tree (AtomTreeReplay), so what comes first in the
    /// document is reported first, as it is when a cut falls before the error (fuzz findings).
    @Test("what libxml2 parsed ahead of an XML error is read before the error", arguments: [0, 1, 7, 20, 60, 200])
    func parsedAheadOfAnError(padding: Int) throws {
        let entry =
            "<entry><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey></m:properties></entry>\n"
        let first =
            "<entry><m:properties><d:PartitionKey>p\(String(repeating: "x", count: padding))</d:PartitionKey><d:RowKey>r</d:RowKey></m:properties></entry>\n"
        let atom =
            "<feed \(Atom.namespaces)>\n" + first + String(repeating: entry, count: 10)
            + "<entry><i\u{01}/></entry></feed>"
        let reader = AtomEntityReader(input: ByteInput(name: "test.atom", bytes: Array(atom.utf8)))
        var count = 0
        let error = #expect(throws: FormatError.self) {
            while try reader.next() != nil { count += 1 }
        }
        #expect(count == 11, "every entry before the error's line is read")
        #expect(error?.line == 13, "\(String(describing: error))")
    }

    /// libxml2 builds nothing after a fatal error, so whatever it built came first, on the error's own
    /// line too (a feed on one line is common). A fuzz finding: an `<entry>` inside an unclosed
    /// `<link>` was reported after a malformed end tag later on its line, or before it in pieces.
    @Test("on the line of an XML error, what libxml2 parsed ahead of it is read first", arguments: [0, 7, 200])
    func parsedAheadOnTheErrorLine(padding: Int) throws {
        let entry =
            "<entry><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey></m:properties></entry>"
        // A fatal error, and a namespace error (after which libxml2 itself would go on building).
        for (bad, reason) in [("<i\u{01}/>", "malformed XML"), ("<x:y/>", "Namespace prefix x")] {
            let reader = AtomEntityReader(
                input: ByteInput(
                    name: "test.atom",
                    bytes: Array(
                        ("<feed \(Atom.namespaces)>" + String(repeating: entry, count: 11)
                            + "<entry>\(bad)</entry></feed>").utf8
                    )
                )
            )
            var count = 0
            let error = #expect(throws: FormatError.self) {
                while try reader.next() != nil { count += 1 }
            }
            #expect(count == 11, "every entry before the error is read")
            #expect(error?.line == 1 && error?.reason.contains(reason) == true, "\(String(describing: error))")
        }

        let nested =
            "<feed \(Atom.namespaces)>\n<link href=\"x\"><entry>\(String(repeating: "x", count: padding))</d:X junk></entry></link></feed>"
        let nestedError = try #require(Atom.error(Array(nested.utf8)))
        #expect(nestedError.line == 2 && nestedError.reason.contains("inside another element"), "\(nestedError)")
    }

    /// libxml2 checks a CDATA section whose end has not come in blocks of 300 bytes as they arrive,
    /// and a bad character at a block's start halts the check: whether it was reported depended on
    /// how the input arrived (a fuzz finding). A section that never ends is the error, every time.
    @Test(
        "a bad character in a CDATA section that never ends: the section is the error, however the input arrives",
        arguments: [0, 1, 299, 300, 301, 600]
    )
    func badCharacterInUnendingCDATA(offset: Int) throws {
        let atom =
            "<feed \(Atom.namespaces)>\n<entry><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r<![CDATA["
            + String(repeating: "x", count: offset) + "\u{01}" + String(repeating: "y\n", count: 400)
        for chunkSize in [7, 300, 512, 256 << 10] {
            let reader = AtomEntityReader(
                input: ByteInput(name: "test.atom", bytes: Array(atom.utf8)),
                chunkSize: chunkSize
            )
            let error = #expect(throws: FormatError.self) { while try reader.next() != nil {} }
            #expect(
                error?.line == 2 && error?.reason.contains("ends inside a CDATA section") == true,
                "chunks of \(chunkSize): \(String(describing: error))"
            )
        }
    }

    @Test("a bad value in an entry comes before an XML error in the next, whichever libxml2 met first")
    func badValueBeforeXMLError() throws {
        let atom =
            "<feed \(Atom.namespaces)>\n<entry><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n"
            + "<d:T m:type=\"Edm.DateTime\">2013-03-27T11:02:28.169*983Z</d:T></m:properties></entry>\n<entry>\n<id11-10T03:04</id></entry></feed>"
        let error = try #require(Atom.error(Array(atom.utf8)))
        #expect(error.line == 3, "\(error)")
        #expect(error.reason.contains("not a valid Edm.DateTime"), "\(error)")
    }

    @Test("an element with as many attributes as allowed is read")
    func attributesAtTheBound() throws {
        let attributes = (1..<1000).map { "x:a\($0)='\($0 % 7 == 0 ? ">" : "")'" }.joined(separator: " ")
        let atom =
            "<feed \(Atom.namespaces) xmlns:x=\"urn:x\">\n<!-- \" ' --><entry \(attributes)><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey></m:properties></entry></feed>"
        #expect(try Atom.read(atom).map(\.rowKey) == ["r"])
    }

    @Test("an entry with 100,000 properties reads in linear time, and a name given twice is still found")
    func manyProperties() throws {
        let names = (0..<100_000).map { "<d:P\($0)>v</d:P\($0)>" }.joined()
        let entity = try #require(try Atom.read(Atom.feed(properties: names)).first)
        #expect(entity.properties.count == 100_000)
        let error = Atom.error(Atom.feed(properties: names + "\n<d:P50000>again</d:P50000>"))
        #expect(error?.reason.contains("P50000 is given twice") == true, "\(String(describing: error))")
        #expect(error?.line == 9)
    }

    @Test("lines past 65,535 are counted, not taken from the parser's position", arguments: [256 << 10, 4096])
    func largeLines(chunkSize: Int) throws {
        let entry =
            "  <entry>\n    <content type=\"application/xml\"><m:properties>\n      <d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey>\n    </m:properties></content></entry>\n"
        let bad =
            "  <entry>\n    <content type=\"application/xml\"><m:properties>\n      <d:PartitionKey>p</d:PartitionKey><d:RowKey>bad</d:RowKey>\n      <d:N m:type=\"Edm.Int32\">x</d:N>\n    </m:properties></content></entry>\n"
        let atom =
            "<feed \(Atom.namespaces)>\n" + String(repeating: entry, count: 20_000) + bad
            + String(repeating: entry, count: 10) + "</feed>\n"
        let reader = AtomEntityReader(
            input: ByteInput(name: "test.atom", bytes: Array(atom.utf8)),
            chunkSize: chunkSize
        )
        var lines: [Int] = []
        let error = #expect(throws: FormatError.self) {
            while try reader.next() != nil { lines.append(reader.entityLine) }
        }
        #expect(lines.count == 20_000)
        #expect(lines.last == 2 + 19_999 * 4)
        // The bad entry starts on line 80,002; its fourth line holds N.
        #expect(error?.line == 80_005, "\(String(describing: error))")
        #expect(error?.keys?.rowKey == "bad")
    }

    @Test("a text node over libxml2's 10 MB limit is an error, not an allocation")
    func hugeValue() {
        let atom = Atom.feed(properties: "<d:Big>" + String(repeating: "x", count: 11_000_000) + "</d:Big>")
        let error = Atom.error(atom)
        #expect(error?.reason.contains("huge") == true, "\(String(describing: error))")
        #expect(error?.line == 8)
    }

    @Test("an input that fails to read is an I/O error (74)")
    func unreadable() throws {
        let input = try ByteInput(path: "/proc/self/mem")
        let error = #expect(throws: FormatError.self) { try AtomEntityReader(input: input).next() }
        #expect(error?.kind == .ioError)
    }
}
