import SpeakEasyData
import Testing

@Suite("Table entity request bodies")
struct TableEntityBodyTests {
    func code(_ json: String) -> String? { code(Array(json.utf8)) }

    func code(_ body: [UInt8]) -> String? {
        do {
            _ = try TableEntityBody.readJSON(body)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("the client's body reads back to the same entity, without Timestamp or etag")
    func roundTrip() throws {
        let entity = everyTypeEntity()
        let body = TableEntityBody.writeJSON(entity)
        let text = String(decoding: body, as: UTF8.self)
        #expect(!text.contains("Timestamp") && !text.contains("odata.etag"))
        let read = try TableEntityBody.readJSON(body)
        #expect(read.timestamp == nil && read.etag == nil)
        #expect(read.properties.count == entity.properties.count)
        #expect(read.properties.first { $0.name == "Followers" }?.value == .int64(1_099_511_627_776))
        #expect(read.properties.first { $0.name == "Avatar" }?.value == .binary([0, 1, 0x68, 0x69]))
    }

    @Test("the client's Timestamp and odata.etag are ignored")
    func ignoresServerFields() throws {
        let entity = try TableEntityBody.readJSON(
            Array(
                #"{"odata.etag":"W/\"x\"","PartitionKey":"p","RowKey":"r","Timestamp":"2020-01-01T00:00:00Z","A":1}"#
                    .utf8
            )
        )
        #expect(entity.timestamp == nil && entity.etag == nil && entity.properties == [Property("A", .int32(1))])
    }

    @Test("an update by URL may leave the keys out of the body, but may not name others")
    func keysFromURL() throws {
        let keys = (partitionKey: "p", rowKey: "O'Brien")
        let entity = try TableEntityBody.readJSON(Array(#"{"A":1,"Timestamp":"not even a date"}"#.utf8), keys: keys)
        #expect(
            entity.partitionKey == "p" && entity.rowKey == "O'Brien" && entity.properties == [Property("A", .int32(1))]
        )
        #expect(
            try TableEntityBody.readJSON(Array(#"{"PartitionKey":"p","RowKey":"O'Brien"}"#.utf8), keys: keys).properties
                .isEmpty
        )
        do {
            _ = try TableEntityBody.readJSON(Array(#"{"PartitionKey":"q"}"#.utf8), keys: keys)
            Issue.record("a body naming other keys was accepted")
        } catch {
            #expect(error.code == "InvalidInput")
        }
    }

    @Test(
        "bad bodies get Azure's codes",
        arguments: [
            (#"{"RowKey":"r"}"#, "PropertiesNeedValue"),
            (#"{"PartitionKey":"p"}"#, "PropertiesNeedValue"),
            (#"{"PartitionKey":"p","RowKey":"r","A":1,"A":2}"#, "DuplicatePropertiesSpecified"),
            (#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Int32","A":"x"}"#, "InvalidValueType"),
            (#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.Nope","A":"x"}"#, "InvalidValueType"),
            (#"{"PartitionKey":"p","RowKey":"r","A@odata.type":"Edm.DateTime","A":"yesterday"}"#, "InvalidValueType"),
            (#"{"PartitionKey":1,"RowKey":"r"}"#, "InvalidValueType"),
            (#"{"PartitionKey":"p","RowKey":"r","A":{"nested":1}}"#, "InvalidInput"),
            (#"{"PartitionKey":"p","RowKey":"r""#, "InvalidInput"),
            ("not json", "InvalidInput"),
            ("", "InvalidInput"),
            ("[]", "InvalidInput"),
            (#"{"PartitionKey":"a/b","RowKey":"r"}"#, "OutOfRangeInput"),
            (#"{"PartitionKey":"p","RowKey":"a?b"}"#, "OutOfRangeInput"),
            (#"{"PartitionKey":"a#b","RowKey":"r"}"#, "OutOfRangeInput"),
            (#"{"PartitionKey":"a\\b","RowKey":"r"}"#, "OutOfRangeInput"),
            (#"{"PartitionKey":"a\u0001b","RowKey":"r"}"#, "OutOfRangeInput"),
            (#"{"PartitionKey":"p","RowKey":"r","1st":1}"#, "PropertyNameInvalid"),
            (#"{"PartitionKey":"p","RowKey":"r","a-b":1}"#, "PropertyNameInvalid"),
            (
                #"{"PartitionKey":"p","RowKey":"r","D@odata.type":"Edm.DateTime","D":"1600-12-31T23:59:59Z"}"#,
                "OutOfRangeInput"
            ),
        ]
    )
    func badBodies(json: String, expected: String) {
        #expect(code(json) == expected, "\(json)")
    }

    @Test("a body that is not UTF-8 is InvalidInput")
    func invalidUTF8() {
        var body = Array(#"{"PartitionKey":"p","RowKey":"r","A":""#.utf8)
        body += [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(code(body) == "InvalidInput")
    }

    @Test("the size limits: 252 properties, 64 KiB values, 1 MiB entities, 255-character names, 1 KiB keys")
    func limits() {
        func body(_ properties: String, partitionKey: String = "p") -> String {
            #"{"PartitionKey":"\#(partitionKey)","RowKey":"r"\#(properties)}"#
        }
        let many = (0..<253).map { #","P\#($0)":1"# }.joined()
        #expect(code(body(many)) == "TooManyProperties")
        #expect(code(body((0..<252).map { #","P\#($0)":1"# }.joined())) == nil)
        #expect(code(body(#","S":"\#(String(repeating: "x", count: 32 * 1024))""#)) == nil)
        #expect(code(body(#","S":"\#(String(repeating: "x", count: 32 * 1024 + 1))""#)) == "PropertyValueTooLarge")
        let big = Base64.encode([UInt8](repeating: 7, count: 64 * 1024 + 1))
        #expect(code(body(#","B@odata.type":"Edm.Binary","B":"\#(big)""#)) == "PropertyValueTooLarge")
        let strings = (0..<20).map { #","S\#($0)":"\#(String(repeating: "x", count: 30_000))""# }.joined()
        #expect(code(body(strings)) == "EntityTooLarge")
        #expect(code(body(#","\#(String(repeating: "n", count: 256))":1"#)) == "PropertyNameTooLong")
        #expect(code(body("", partitionKey: String(repeating: "k", count: 513))) == "OutOfRangeInput")
        #expect(code(body("", partitionKey: String(repeating: "k", count: 512))) == nil)
    }

    @Test("a body over 4 MiB is refused before it is parsed")
    func hugeBody() {
        #expect(code(String(repeating: " ", count: 4 << 20 + 1)) == "RequestBodyTooLarge")
    }

    @Test("Atom bodies are read by Content-Type, the legacy client's recorded insert included")
    func atom() throws {
        let entity = try TableEntityBody.read(
            try AzureFixture.bytes("table-atom-insert-entity-request.xml"),
            contentType: "application/atom+xml;charset=\"utf-8\""
        )
        #expect(entity.partitionKey == "part2" && entity.rowKey == "row1")
        #expect(entity["intValue"] == .int32(42))
        #expect(entity["dateValue"] == .dateTime(time("2012-01-25T00:00:00Z")))
        #expect(throws: TableServiceError.self) {
            try TableEntityBody.read(Array("<entry>".utf8), contentType: "application/atom+xml")
        }
        let noKey =
            #"<entry xmlns="http://www.w3.org/2005/Atom" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices"><content type="application/xml"><m:properties><d:RowKey>r</d:RowKey></m:properties></content></entry>"#
        do {
            _ = try TableEntityBody.read(Array(noKey.utf8), contentType: "application/atom+xml")
            Issue.record("no PartitionKey was accepted")
        } catch {
            #expect(error.code == "PropertiesNeedValue")
        }
    }
}
