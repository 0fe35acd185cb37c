import SpeakEasyData
import TestSupport
import Testing

/// How the reader interprets entries that the formatter would never write.
@Suite("Atom entity reader")
struct AtomEntityReaderTests {
    @Test("no m:type is Edm.String; explicit Edm.String too; m:null=\"true\" means absent")
    func typesAndNulls() throws {
        let atom = Atom.feed(
            properties: """
                <d:Plain>text</d:Plain>
                <d:Explicit m:type="Edm.String">42</d:Explicit>
                <d:Gone m:null="true" />
                <d:GoneTyped m:type="Edm.Int32" m:null="true"></d:GoneTyped>
                <d:Kept m:null="false" m:type="Edm.Int64">-9223372036854775808</d:Kept>
                <d:Bare m:type="Int32">7</d:Bare>
                <d:Empty></d:Empty>
                <d:EmptyTag/>
                <d:EmptyBinary m:type="Edm.Binary"/>
                <d:True m:type="Edm.Boolean">True</d:True>
                <d:Inf m:type="Edm.Double">INF</d:Inf>
                <d:MinusInf m:type="Edm.Double">-INF</d:MinusInf>
                <d:NoZ m:type="Edm.DateTime">2008-07-10T00:00:00</d:NoZ>
                """
        )
        let entity = try #require(try Atom.read(atom).first)
        #expect(
            entity.properties == [
                Property("Plain", .string("text")), Property("Explicit", .string("42")), Property("Kept", .int64(.min)),
                Property("Bare", .int32(7)), Property("Empty", .string("")), Property("EmptyTag", .string("")),
                Property("EmptyBinary", .binary([])), Property("True", .boolean(true)),
                Property("Inf", .double(.infinity)),
                Property("MinusInf", .double(-.infinity)), Property("NoZ", .dateTime(.at("2008-07-10T00:00:00Z"))),
            ]
        )
    }

    @Test("string white space and line breaks are kept exactly; references, CDATA and comments join")
    func exactStrings() throws {
        let atom = Atom.feed(
            properties: """
                <d:Spaces>   </d:Spaces>
                <d:Lines>\n  first\n  second\n</d:Lines>
                <d:RawCRLF>a\r\nb\rc</d:RawCRLF>
                <d:CR>a&#13;&#10;b&#xD;</d:CR>
                <d:Refs>&lt;&gt;&amp;&quot;&apos;&#x1F600;</d:Refs>
                <d:Cdata>  <![CDATA[<not markup> & ]]]]><![CDATA[>]]>  </d:Cdata>
                <d:Comment>a<!-- dropped -->b<?pi also dropped?>c</d:Comment>
                <d:Preserve xml:space="default">  x  </d:Preserve>
                """
        )
        let entity = try #require(try Atom.read(atom).first)
        #expect(entity["Spaces"] == .string("   "))
        #expect(entity["Lines"] == .string("\n  first\n  second\n"))
        #expect(entity["RawCRLF"] == .string("a\nb\nc"), "XML normalises raw line ends to LF; writers must use &#13;")
        #expect(entity["CR"] == .string("a\r\nb\r"))
        #expect(entity["Refs"] == .string("<>&\"'😀"))
        #expect(entity["Cdata"] == .string("  <not markup> & ]]>  "))
        #expect(entity["Comment"] == .string("abc"))
        #expect(entity["Preserve"] == .string("  x  "))
    }

    @Test("namespaces are matched by URI, whatever the prefixes")
    func prefixes() throws {
        let atom = """
            <a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:entry xmlns:meta="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" meta:etag="E">
            <a:content><meta:properties xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">
            <PartitionKey>p</PartitionKey><RowKey>r</RowKey><N meta:type="Edm.Int32">1</N>
            </meta:properties></a:content></a:entry></a:feed>
            """
        #expect(
            try Atom.read(atom) == [
                Entity(partitionKey: "p", rowKey: "r", etag: "E", properties: [Property("N", .int32(1))])
            ]
        )
    }

    @Test("elements that only look right (Atom names in other namespaces) are not entries or properties")
    func wrongNamespaces() throws {
        let atom = """
            <feed \(Atom.namespaces) xmlns:x="urn:x"><x:entry><m:properties><d:PartitionKey>no</d:PartitionKey></m:properties></x:entry>
            <entry><x:properties><d:Ignored>1</d:Ignored></x:properties><content><m:properties><d:PartitionKey>p</d:PartitionKey><d:RowKey>r</d:RowKey></m:properties></content></entry></feed>
            """
        #expect(try Atom.read(atom) == [Entity(partitionKey: "p", rowKey: "r")])
    }

    @Test("a single-entry document with m:etag on its root, as GET by keys answers")
    func singleEntry() throws {
        let atom = """
            <?xml version="1.0" encoding="utf-8" standalone="yes"?>
            <entry xml:base="https://speakeasy.table.core.windows.net/" \(Atom.namespaces) m:etag="W/&quot;datetime'2013-05-30T20%3A57%3A20.7467705Z'&quot;">
              <id>https://speakeasy.table.core.windows.net/speakers(PartitionKey='speaker',RowKey='ada')</id>
              <content type="application/xml"><m:properties>
                <d:PartitionKey>speaker</d:PartitionKey><d:RowKey>ada</d:RowKey>
                <d:Timestamp m:type="Edm.DateTime">2013-05-30T20:57:20.7467705Z</d:Timestamp>
                <d:Name>Ada Lovelace</d:Name>
              </m:properties></content>
            </entry>
            """
        let entities = try Atom.read(atom)
        #expect(
            entities == [
                Entity(
                    partitionKey: "speaker",
                    rowKey: "ada",
                    timestamp: .at("2013-05-30T20:57:20.7467705Z"),
                    etag: #"W/"datetime'2013-05-30T20%3A57%3A20.7467705Z'""#,
                    properties: [Property("Name", .string("Ada Lovelace"))]
                )
            ]
        )
    }

    @Test("an empty feed has no entities; so does <feed/>")
    func emptyFeeds() throws {
        #expect(try Atom.read("<feed \(Atom.namespaces)><title>t</title></feed>").isEmpty)
        #expect(try Atom.read("<feed xmlns=\"http://www.w3.org/2005/Atom\"/>").isEmpty)
    }

    @Test("next() after the end keeps returning nil; after an error keeps throwing it")
    func afterTheEnd() throws {
        let reader = AtomEntityReader(input: ByteInput(name: "x", bytes: Array(Atom.feed(properties: "").utf8)))
        #expect(try reader.next() != nil)
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
        let broken = AtomEntityReader(input: ByteInput(name: "x", bytes: Array("<feed".utf8)))
        let first = #expect(throws: FormatError.self) { try broken.next() }
        let second = #expect(throws: FormatError.self) { try broken.next() }
        #expect(first == second)
    }

    @Test("20,000 generated entries are read one by one, in order, through small and large chunks")
    func largeFeed() throws {
        let entities = (0..<20_000).map { index in
            Entity(
                partitionKey: "Events",
                rowKey: String(index),
                timestamp: .at("2024-01-01T00:00:00Z"),
                properties: [Property("N", .int32(Int32(index))), Property("Text", .string("entry \(index) <&>"))]
            )
        }
        let atom = try Atom.write(entities)
        for chunkSize in [4096, 1 << 20] {
            let reader = AtomEntityReader(input: ByteInput(name: "big", bytes: atom), chunkSize: chunkSize)
            var count = 0
            while let entity = try reader.next() {
                guard entity == entities[count] else {
                    Issue.record("entry \(count) differs: \(entity)")
                    return
                }
                count += 1
            }
            #expect(count == entities.count)
        }
    }
}
