import SpeakEasyData
import Testing

@Suite("Table error bodies")
struct TableErrorBodyTests {
    let duplicateRow = TableServiceError(
        status: 400,
        code: "InvalidDuplicateRow",
        "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request.",
        operationIndex: 1
    )

    @Test("the JSON form is the recorded batch failure's body, byte for byte")
    func jsonMatchesFixture() throws {
        let fixture = try AzureFixture.text("table-json-batch-response-failure.txt")
        let body = TableErrorBody.write(
            duplicateRow,
            format: .json(.minimal),
            requestID: "a1ec3b01-0002-0014-0903-675563000000",
            time: time("2017-01-05T03:25:19.9234800Z")
        )
        #expect(fixture.contains(String(decoding: body, as: UTF8.self) + "\r\n"))
    }

    @Test("the Atom form has the recorded error's elements and text")
    func atomMatchesFixture() throws {
        let error = TableServiceError(status: 409, code: "TableAlreadyExists", "The table specified already exists.")
        let body = TableErrorBody.write(
            error,
            format: .atom,
            requestID: "ebcc9f6b-c774-4f22-b4a9-078a393394eb",
            time: time("2013-05-30T20:57:11.1474844Z")
        )
        let text = String(decoding: body, as: UTF8.self)
        // The recording is indented with CRLF between elements; the content is the same.
        let fixture = try AzureFixture.text("table-atom-error-table-already-exists.xml")
        let squeezed = fixture.replacing("\r\n  ", with: "").replacing("\r\n", with: "")
        #expect(text == squeezed)
    }

    @Test(
        "both forms read back to the code, the message and the operation's index",
        arguments: [TableWireFormat.json(.none), .json(.full), .atom]
    )
    func roundTrip(format: TableWireFormat) {
        let body = TableErrorBody.write(
            duplicateRow,
            format: format,
            requestID: "r",
            time: time("2017-01-05T03:25:19Z")
        )
        #expect(TableErrorBody.read(body, status: 400) == duplicateRow)
    }

    @Test("the recorded bodies are read")
    func readsFixtures() throws {
        let atom = TableErrorBody.read(try AzureFixture.bytes("table-atom-error-table-already-exists.xml"), status: 409)
        #expect(
            atom == TableServiceError(status: 409, code: "TableAlreadyExists", "The table specified already exists.")
        )
        let failure = try AzureFixture.text("table-json-batch-response-failure.txt")
        let json = failure.split(separator: "\r\n").first { $0.hasPrefix("{") }!
        #expect(TableErrorBody.read(Array(json.utf8), status: 400) == duplicateRow)
    }

    @Test("a message with markup and quotes survives both forms")
    func escaping() {
        let error = TableServiceError(status: 400, code: "InvalidInput", "bad <value> & \"quote\"\ttab")
        for format in [TableWireFormat.json(.minimal), .atom] {
            let body = TableErrorBody.write(error, format: format, requestID: "r", time: .unixEpoch)
            #expect(TableErrorBody.read(body, status: 400) == error)
        }
    }

    @Test(
        "bodies that are not errors read as nil",
        arguments: ["", "not json", "{\"value\":[]}", "<feed/>", "{\"odata.error\":", "\u{FEFF}"]
    )
    func notErrors(text: String) {
        #expect(TableErrorBody.read(Array(text.utf8), status: 500) == nil)
    }

    @Test("a storage error keeps its code and status")
    func fromStorageError() {
        let error = TableServiceError(
            StorageError(.notFound, account: "a", "The table specified does not exist.", code: "TableNotFound")
        )
        #expect(error.status == 404 && error.code == "TableNotFound")
        let read = StorageHTTPClient.storageError(error, account: "a", error.message, operationIndex: nil)
        #expect(read.reason == .notFound)
        #expect(read.code == "TableNotFound")
    }

    @Test("Accept chooses the format and the Content-Type echoes it")
    func negotiation() {
        #expect(TableWireFormat(accept: "application/json;odata=fullmetadata") == .json(.full))
        #expect(TableWireFormat(accept: "application/json; odata=nometadata") == .json(.none))
        #expect(TableWireFormat(accept: "application/json") == .json(.minimal))
        #expect(TableWireFormat(accept: "application/atom+xml,application/xml") == .atom)
        #expect(TableWireFormat(accept: nil, version: "2014-02-14") == .atom)
        #expect(TableWireFormat(accept: nil, version: "2019-02-02") == .json(.minimal))
        #expect(TableWireFormat(accept: nil) == .json(.minimal))
        #expect(
            TableWireFormat.json(.minimal).contentType
                == "application/json;odata=minimalmetadata;streaming=true;charset=utf-8"
        )
        #expect(
            TableWireFormat(contentType: "application/json;odata=fullmetadata;streaming=true;charset=utf-8")
                == .json(.full)
        )
    }
}
