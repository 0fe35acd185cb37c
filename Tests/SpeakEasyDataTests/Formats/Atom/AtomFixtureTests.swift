import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// Real Atom payloads recorded from Azure by Microsoft's SDK test suites (`Tests/Fixtures/azure/README.md`).
@Suite("Atom reader on the recorded Azure payloads")
struct AtomFixtureTests {
    static let feedPath = TestPaths.azureFixtures + "/table-atom-query-entities-feed.xml"
    static let insertPath = TestPaths.azureFixtures + "/table-atom-insert-entity-request.xml"

    @Test("the Query Entities feed: two entries, every value, type, Timestamp and ETag")
    func queryFeed() throws {
        let entities = try Atom.read(readFile(Self.feedPath))
        #expect(entities.count == 2)
        let expected: [(rowKey: String, timestamp: String, etag: String)] = [
            ("2", "2013-03-27T11:02:28.1691983Z", #"W/"datetime'2013-03-27T11%3A02%3A28.1691983Z'""#),
            ("3", "2013-03-27T11:02:29.7380881Z", #"W/"datetime'2013-03-27T11%3A02%3A29.7380881Z'""#),
        ]
        for (entity, want) in zip(entities, expected) {
            #expect(entity.partitionKey == "1")
            #expect(entity.rowKey == want.rowKey)
            #expect(entity.timestamp == .at(want.timestamp))
            #expect(entity.etag == want.etag)
            #expect(
                entity.properties == [
                    Property("IntNumberValue", .int32(200)),
                    Property("DoubleNumberValue", .double(2.5)),
                    Property("FalseBooleanValue", .boolean(false)),
                    Property("TrueBooleanValue", .boolean(true)),
                    Property("StringValue", .string("hi there")),
                    Property("DateValue", .dateTime(.at("2012-11-10T03:04:05.2000000Z"))),
                ]
            )
        }
    }

    @Test("the feed's entries start on lines 7 and 30 (CRLF line ends)")
    func entryLines() throws {
        let reader = AtomEntityReader(input: ByteInput(name: "feed", bytes: try readFile(Self.feedPath)))
        var lines: [Int] = []
        while try reader.next() != nil { lines.append(reader.entityLine) }
        #expect(lines == [7, 30])
    }

    @Test("the Insert Entity request: a single <entry> document, DateTime with .000Z")
    func insertRequest() throws {
        let entities = try Atom.read(readFile(Self.insertPath))
        #expect(
            entities == [
                Entity(
                    partitionKey: "part2",
                    rowKey: "row1",
                    properties: [
                        Property("boolValueTrue", .boolean(true)),
                        Property("boolValueFalse", .boolean(false)),
                        Property("intValue", .int32(42)),
                        Property("dateValue", .dateTime(.at("2012-01-25T00:00:00Z"))),
                    ]
                )
            ]
        )
    }

    @Test("the feed survives being written and read again")
    func rewrite() throws {
        let entities = try Atom.read(readFile(Self.feedPath))
        #expect(try Atom.read(Atom.write(entities)) == entities)
    }
}
