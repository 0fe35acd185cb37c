import SpeakEasyData
import Testing

@Suite("Table JSON response bodies")
struct TableJSONWriterTests {
    static let levels: [(String, JSONMetadata, String)] = [
        ("table-json-query-nometadata.json", .none, "tablepayloadteststestdata51"),
        ("table-json-query-minimalmetadata.json", .minimal, "tablepayloadteststestdata41"),
        ("table-json-query-fullmetadata.json", .full, "tablepayloadteststestdata31"),
    ]

    @Test("a query page is the recorded response byte for byte, the ETag derived from the Timestamp", arguments: levels)
    func queryMatchesFixture(fixture: String, level: JSONMetadata, table: String) throws {
        let recorded = try AzureFixture.bytes(fixture)
        var entities = try TableJSONReader.entities(recorded)
        #expect(entities.count == 2)
        for index in entities.indices { entities[index].etag = nil }
        let written = TableJSONWriter(endpoint: AzureFixture.xplat, metadata: level).queryResponse(
            entities,
            table: table
        )
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: recorded, as: UTF8.self))
    }

    @Test(
        "a page copied from stored JSON is byte for byte the page written from decoded entities",
        arguments: [JSONMetadata.minimal, .none]
    )
    func storedEqualsDecoded(level: JSONMetadata) throws {
        var entities = [everyTypeEntity(), everyTypeEntity(rowKey: "grace"), Entity(partitionKey: "p", rowKey: "bare")]
        entities[1].properties += [
            Property("Big", .double(1e16)), Property("Small", .double(-2.5e-10)),
            Property("Infinite", .double(-.infinity)),
            Property("Zero", .double(-0.0)), Property("Tab\u{7F}", .string("é\t\u{1}😀")),
            Property("Late", .dateTime(time("9999-12-31T23:59:59.9999999Z"))),
            Property("Seconds", .dateTime(time("2026-04-11T23:09:00.1000000Z"))), Property("Empty", .string("")),
            Property("False", .boolean(false)),
        ]
        entities[1].etag = "W/\"datetime'2024-05-01T10%3A00%3A01.123456Z'\""
        entities[2].timestamp = nil
        let writer = TableJSONWriter(endpoint: AzureFixture.xplat, metadata: level)
        let decoded = writer.queryResponse(entities, table: "speakers")
        var copied: [UInt8] = []
        try writer.queryResponse(
            stored: StoredEntityPage(
                entities: entities.map { StoredEntity(EncodedEntity($0), timestamp: $0.timestamp, etag: $0.etag) },
                next: nil
            ),
            table: "speakers"
        ) { copied += $0 }
        #expect(String(decoding: copied, as: UTF8.self) == String(decoding: decoded, as: UTF8.self))
    }

    @Test("stored JSON that is not an object is an error, not a page")
    func storedCorrupt() {
        let broken = StoredEntity(
            EncodedEntity(partitionKey: "p", rowKey: "r", properties: Array(#"{"A":1,"#.utf8)),
            timestamp: nil,
            etag: nil
        )
        #expect(throws: JSONSyntaxError.self) {
            try TableJSONWriter(endpoint: AzureFixture.xplat, metadata: .minimal).queryResponse(
                stored: StoredEntityPage(entities: [broken], next: nil),
                table: "t"
            ) { _ in }
        }
    }

    @Test("types survive at minimal and full metadata")
    func typesRoundTrip() throws {
        let entity = everyTypeEntity()
        for level in [JSONMetadata.minimal, .full] {
            let body = TableJSONWriter(endpoint: AzureFixture.xplat, metadata: level).entityResponse(
                entity,
                table: "speakers"
            )
            let read = try TableJSONReader.entity(body)
            #expect(read.properties.count == entity.properties.count)
            for (a, b) in zip(read.properties, entity.properties) {
                #expect(a.name == b.name)
                #expect(a.value.type == b.value.type)
                if case .double(let x) = a.value, x.isNaN { continue }
                #expect(a.value == b.value)
            }
            #expect(read.timestamp == entity.timestamp)
            #expect(read.etag == TableETag.weak(entity.timestamp!))
        }
    }

    @Test("a single entity is a bare object with @Element, DateTimes trimmed as Azure writes them")
    func singleEntity() {
        let entity = everyTypeEntity()
        let text = String(
            decoding: TableJSONWriter(endpoint: AzureFixture.xplat, metadata: .minimal).entityResponse(
                entity,
                table: "speakers"
            ),
            as: UTF8.self
        )
        #expect(
            text.hasPrefix(
                #"{"odata.metadata":"https://xplat.table.core.windows.net/$metadata#speakers/@Element","odata.etag":"W/\"datetime'2024-05-01T10%3A00%3A01.123456Z'\"","PartitionKey":"speaker","RowKey":"ada","Timestamp":"2024-05-01T10:00:01.123456Z""#
            )
        )
        #expect(text.contains(#""FirstTalk@odata.type":"Edm.DateTime","FirstTalk":"1843-07-01T09:00:00Z""#))
        #expect(text.contains(#""Whole":10.0,"Tiny":5E-324,"NotANumber@odata.type":"Edm.Double","NotANumber":"NaN""#))
        #expect(text.contains(#""Followers@odata.type":"Edm.Int64","Followers":"1099511627776""#))
    }

    @Test("the numeric edge cases read back to the recorded values")
    func numericEdgeCases() throws {
        let recorded = try TableJSONReader.entity(
            try AzureFixture.bytes("table-json-entity-numeric-edge-cases-minimalmetadata.json")
        )
        let written = TableJSONWriter(endpoint: AzureFixture.xplat, metadata: .minimal).entityResponse(
            recorded,
            table: "tablepayloadteststestdata101"
        )
        let reread = try TableJSONReader.entity(written)
        #expect(reread.etag == recorded.etag && reread.timestamp == recorded.timestamp)
        for (a, b) in zip(reread.properties, recorded.properties) {
            #expect(a.name == b.name && a.value.type == b.value.type)
            if case .double(let x) = a.value, x.isNaN { continue }
            #expect(a.value == b.value)
        }
        #expect(String(decoding: written, as: UTF8.self).contains(#""MaxDouble":1.7976931348623157E+308"#))
    }

    @Test("table lists and a created table, at each level")
    func tables() throws {
        let endpoint = TableEndpoint(url: "http://127.0.0.1:10002/devstoreaccount1/", account: "devstoreaccount1")
        let none = TableJSONWriter(endpoint: endpoint, metadata: .none)
        #expect(
            String(decoding: none.tablesResponse(["a", "b"]), as: UTF8.self)
                == #"{"value":[{"TableName":"a"},{"TableName":"b"}]}"#
        )
        let minimal = TableJSONWriter(endpoint: endpoint, metadata: .minimal)
        #expect(
            String(decoding: minimal.tableResponse("speakers"), as: UTF8.self)
                == #"{"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables/@Element","TableName":"speakers"}"#
        )
        let full = TableJSONWriter(endpoint: endpoint, metadata: .full)
        #expect(
            String(decoding: full.tablesResponse(["speakers"]), as: UTF8.self)
                == #"{"odata.metadata":"http://127.0.0.1:10002/devstoreaccount1/$metadata#Tables","value":[{"odata.type":"devstoreaccount1.Tables","odata.id":"http://127.0.0.1:10002/devstoreaccount1/Tables('speakers')","odata.editLink":"Tables('speakers')","TableName":"speakers"}]}"#
        )
        #expect(try TableJSONReader.tableNames(full.tablesResponse(["speakers", "events"])) == ["speakers", "events"])
        #expect(try TableJSONReader.tableName(minimal.tableResponse("speakers")) == "speakers")
        #expect(try TableJSONReader.tableName(TableJSONReader.createTableBody("x\"y")) == "x\"y")
        #expect(throws: FormatError.self) { try TableJSONReader.tableNames(Array("{".utf8)) }
    }

    @Test("$select keeps the listed properties and the metadata; a listed property the entity lacks is null")
    func select() throws {
        let entity = everyTypeEntity()
        let none = TableJSONWriter(endpoint: AzureFixture.xplat, metadata: .none).queryResponse(
            [entity],
            table: "t",
            select: ["Rating", "Missing"]
        )
        #expect(String(decoding: none, as: UTF8.self) == #"{"value":[{"Rating":4.5,"Missing":null}]}"#)
        let minimal = TableJSONWriter(endpoint: AzureFixture.xplat, metadata: .minimal).queryResponse(
            [entity],
            table: "t",
            select: ["RowKey", "Followers"]
        )
        #expect(
            String(decoding: minimal, as: UTF8.self)
                == #"{"odata.metadata":"https://xplat.table.core.windows.net/$metadata#t","value":[{"odata.etag":"W/\"datetime'2024-05-01T10%3A00%3A01.123456Z'\"","RowKey":"ada","Followers@odata.type":"Edm.Int64","Followers":"1099511627776"}]}"#
        )
    }

    @Test("an empty page is an empty value array")
    func emptyPage() throws {
        let body = TableJSONWriter(endpoint: AzureFixture.xplat, metadata: .minimal).queryResponse([], table: "t")
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"odata.metadata":"https://xplat.table.core.windows.net/$metadata#t","value":[]}"#
        )
        #expect(try TableJSONReader.entities(body).isEmpty)
    }

    @Test("continuation tokens carry any key through headers and back")
    func continuation() throws {
        let token = ContinuationToken(partitionKey: "p 'ü'", rowKey: "r&=+")
        let headers = TableContinuation.headers(for: token)
        let read = try #require(
            TableContinuation.token { name in headers.first { $0.name.lowercased() == name.lowercased() }?.value }
        )
        #expect(read.partitionKey == token.partitionKey && read.rowKey == token.rowKey)
        // The client sends the service's own text back, as it came.
        #expect(
            read.serviceText
                == ContinuationToken.ServiceText(nextPartitionKey: headers[0].value, nextRowKey: headers[1].value)
        )
        #expect(TableContinuation.queryItems(for: read).map(\.value) == [headers[0].value, headers[1].value])
        #expect(try TableContinuation.token(nextPartitionKey: headers[0].value, nextRowKey: headers[1].value) == token)
        #expect(throws: TableServiceError.self) {
            try TableContinuation.token(nextPartitionKey: "!!!", nextRowKey: nil)
        }
        #expect(TableContinuation.headers(for: nil).isEmpty)
        // Azure's own tokens, `1!<length>!<base64>` with `-` for padding, name their keys too.
        let azure = try #require(
            TableContinuation.token { name in
                name == TableContinuation.nextPartitionKeyHeader
                    ? "1!12!cGFydGl0aW9u" : name == TableContinuation.nextRowKeyHeader ? "1!8!cm93MQ--" : nil
            }
        )
        #expect(azure.partitionKey == "partition" && azure.rowKey == "row1")
        #expect(TableContinuation.queryItems(for: azure).map(\.value) == ["1!12!cGFydGl0aW9u", "1!8!cm93MQ--"])
    }
}
