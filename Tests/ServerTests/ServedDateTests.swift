import Foundation
import SpeakEasyData
import TestServer
import TestSupport
import Testing

/// `serve` serves a DateTime as Azure does, trailing zeros trimmed, in every format: a developer who
/// tests the app against it meets the date bug (a date on a whole second comes as `…:00Z`, which
/// the app's pattern refuses) as against Azure. The recorded Atom feed is the judge of the Atom form.
@Suite("serve: DateTimes as Azure serves them")
struct ServedDateTests {
    static let recordedTable = "tabledatatype7"

    /// The recorded feed's entities, stored as a client would have written them.
    static func storeRecorded(_ path: String) async throws {
        let bytes = Array(
            try Data(contentsOf: URL(fileURLWithPath: TestPaths.azureFixtures + "/table-atom-query-entities-feed.xml"))
        )
        let reader = AtomEntityReader(input: ByteInput(name: "recorded.atom", bytes: bytes), chunkSize: bytes.count)
        var entities: [Entity] = []
        while var entity = try reader.next() {
            entity.etag = nil
            entity.timestamp = nil
            entities.append(entity)
        }
        let event = Entity(
            partitionKey: "Events",
            rowKey: "e1",
            properties: [Property("EventDate", .dateTime(try EdmDateTime(parsing: "2026-07-01T04:34:00.0000000Z")))]
        )
        let account = try StorageLocation.local(path: path).open(readOnly: false)
        try await account.createTableIfNotExists(recordedTable)
        try await account.write(entities, table: recordedTable, mode: .insert)
        try await account.createTableIfNotExists("events")
        try await account.write([event], table: "events", mode: .insert)
        try await account.flush()
    }

    static func get(_ port: Int, _ path: String, accept: String) async throws -> String {
        var (url, headers) = try TableBadRequestTests.signed("GET", port: port, path: path, body: [], contentType: "")
        headers["Accept"] = accept
        let reply = try await send("GET", url, headers: headers)
        #expect(reply.status == 200, "\(reply.text)")
        return reply.text
    }

    /// The `<d:…>` property elements of an Atom body, but the Timestamp, which is the time of writing.
    static func propertyElements(_ text: String) -> [String] {
        text.matches(of: /<d:(\w+)[^>]*>[^<]*<\/d:\1>/).map { String($0.output.0) }.filter {
            !$0.hasPrefix("<d:Timestamp")
        }
    }

    @Test(
        "an Atom query and a get by keys give the recorded properties byte for byte: DateValue '…05.2Z', not seven digits"
    )
    func atomBesideTheRecording() async throws {
        let recorded = String(
            decoding: Array(
                try Data(
                    contentsOf: URL(fileURLWithPath: TestPaths.azureFixtures + "/table-atom-query-entities-feed.xml")
                )
            ),
            as: UTF8.self
        )
        let recordedEntry = String(
            recorded[recorded.range(of: "<entry")!.lowerBound..<recorded.range(of: "</entry>")!.upperBound]
        )
        try await withRunningServer(prepare: Self.storeRecorded) { server in
            let port = server.port(.table)
            let feed = try await Self.get(port, "\(Self.recordedTable)()", accept: "application/atom+xml")
            #expect(Self.propertyElements(feed) == Self.propertyElements(recorded))
            #expect(
                feed.contains(#"<d:DateValue m:type="Edm.DateTime">2012-11-10T03:04:05.2Z</d:DateValue>"#),
                "\(feed)"
            )
            let entry = try await Self.get(
                port,
                "\(Self.recordedTable)(PartitionKey='1',RowKey='2')",
                accept: "application/atom+xml"
            )
            #expect(Self.propertyElements(entry) == Self.propertyElements(recordedEntry))

            // The forms around the properties, as recorded: <updated> in whole seconds, the ETag's
            // Timestamp trimmed and its colons encoded, <id> the entity's address under xml:base.
            for body in [feed, entry] {
                for updated in body.matches(of: /<updated>([^<]*)<\/updated>/) {
                    #expect(
                        updated.output.1.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil,
                        "\(updated.output.1)"
                    )
                }
                let etags = body.matches(of: /m:etag="([^"]*)"/).map { String($0.output.1) }
                #expect(!etags.isEmpty)
                for etag in etags {
                    #expect(
                        etag.wholeMatch(
                            of: /W\/&quot;datetime'\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\d(\.\d{0,6}[1-9])?Z'&quot;/
                        ) != nil,
                        "\(etag)"
                    )
                }
                let base = try #require(body.firstMatch(of: /xml:base="([^"]*)"/)?.output.1)
                #expect(body.contains("<id>\(base)\(Self.recordedTable)(PartitionKey='1',RowKey='2')</id>"), "\(body)")
            }
            let timestamp = try #require(entry.firstMatch(of: /<d:Timestamp m:type="Edm.DateTime">([^<]*)</)?.output.1)
            #expect(timestamp.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{0,6}[1-9])?Z/) != nil, "\(timestamp)")
        }
    }

    @Test("a date on a whole second is served as '…:00Z' in Atom and in JSON at every metadata level")
    func wholeSecondEverywhere() async throws {
        try await withRunningServer(prepare: Self.storeRecorded) { server in
            let port = server.port(.table)
            let accepts = [
                "application/atom+xml", "application/json;odata=nometadata", "application/json;odata=minimalmetadata",
                "application/json;odata=fullmetadata",
            ]
            for accept in accepts {
                for path in ["events()", "events(PartitionKey='Events',RowKey='e1')"] {
                    let body = try await Self.get(port, path, accept: accept)
                    #expect(body.contains("2026-07-01T04:34:00Z"), "\(accept) \(path): \(body)")
                    #expect(!body.contains("04:34:00.0000000Z"), "\(accept) \(path): \(body)")
                }
            }
        }
    }
}
