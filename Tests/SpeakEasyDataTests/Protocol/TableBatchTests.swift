import SpeakEasyData
import Testing

@Suite("Entity group transactions ($batch)")
struct TableBatchTests {
    static let recordedEndpoint = TableEndpoint(
        url: "https://joheredistorage2.table.core.windows.net",
        account: "joheredistorage2"
    )
    static let table = "batchTableTestSASConnectionStringnode"

    func read(
        _ body: String,
        contentType: String? = "multipart/mixed; boundary=batch_1"
    ) throws(TableServiceError) -> TableBatchRequest {
        try TableBatchRequest.read(Array(body.utf8), contentType: contentType)
    }

    /// The batch's refusal: thrown (the whole request), or of one operation (answered inside a 202).
    func failure(_ body: String, contentType: String? = "multipart/mixed; boundary=batch_1") -> TableServiceError? {
        do {
            return try read(body, contentType: contentType).refusal
        } catch {
            return error
        }
    }

    /// The refusal thrown for the whole request; nil when the body reads as a batch.
    func thrown(_ body: String) -> TableServiceError? {
        do {
            _ = try read(body)
            return nil
        } catch {
            return error
        }
    }

    /// A changeset of `parts` (each an HTTP request's text) in a batch `batch_1`, CRLF throughout.
    func batch(_ parts: [String]) -> String {
        var text = "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n"
        for part in parts {
            text +=
                "--changeset_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n" + part
                + "\r\n"
        }
        return text + "--changeset_1--\r\n--batch_1--\r\n"
    }

    func insert(_ rowKey: String, partitionKey: String = "p", table: String = "t") -> String {
        "POST http://127.0.0.1:10002/devstoreaccount1/\(table) HTTP/1.1\r\nContent-Type: application/json\r\n\r\n"
            + #"{"PartitionKey":"\#(partitionKey)","RowKey":"\#(rowKey)","V":1}"#
    }

    @Test("the recorded request reads into two inserts that want no content")
    func readsFixture() throws {
        let request = try TableBatchRequest.read(
            try AzureFixture.bytes("table-json-batch-request.txt"),
            contentType: "multipart/mixed; boundary=batch_fakeId"
        )
        #expect(request.isChangeset)
        #expect(request.operations.map(\.action) == [.insert, .insert])
        #expect(request.operations.map(\.rowKey) == ["1", "2"])
        #expect(
            request.operations.allSatisfy {
                $0.table == Self.table && $0.partitionKey == "helper" && $0.returnNoContent
            }
        )
        #expect(request.operations[1].entity?["value"] == .string("t2"))
    }

    @Test("the success response is the recorded one, byte for byte")
    func writesRecordedResponse() throws {
        let request = try TableBatchRequest.read(
            try AzureFixture.bytes("table-json-batch-request.txt"),
            contentType: "multipart/mixed; boundary=batch_fakeId"
        )
        let etag = #"W/"datetime'2021-06-09T01%3A17%3A12.93486Z'""#
        #expect(etag == TableETag.weak(time("2021-06-09T01:17:12.93486Z")))
        let parts = request.operations.map {
            TableBatchResponse.success($0, etag: etag, endpoint: Self.recordedEndpoint)
        }
        let body = TableBatchResponse(parts: parts).write(
            boundary: "batchresponse_a6300377-d5d9-42e5-9cb6-6983a022b712",
            changesetBoundary: "changesetresponse_49d0e4ef-837f-4392-ac7d-624748c9d2dc"
        )
        #expect(String(decoding: body, as: UTF8.self) == (try AzureFixture.text("table-json-batch-response.txt")))
    }

    @Test("the failure response is the recorded one, byte for byte")
    func writesRecordedFailure() throws {
        let error = TableServiceError(
            status: 400,
            code: "InvalidDuplicateRow",
            "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request.",
            operationIndex: 1
        )
        let part = TableBatchResponse.failure(
            error,
            contentID: "1",
            format: .json(.minimal),
            requestID: "a1ec3b01-0002-0014-0903-675563000000",
            time: time("2017-01-05T03:25:19.9234800Z")
        )
        let body = TableBatchResponse(parts: [part]).write(
            boundary: "batchresponse_afbac488-b2b0-4030-812a-e28dc6004847",
            changesetBoundary: "changesetresponse_8cfe2576-6a76-46e9-99ce-c970890d220d"
        )
        #expect(
            String(decoding: body, as: UTF8.self) == (try AzureFixture.text("table-json-batch-response-failure.txt"))
        )
    }

    @Test("the client reads the recorded responses: the parts, or the failing operation's error")
    func clientReadsFixtures() throws {
        let success = try TableBatchResponse.read(
            try AzureFixture.bytes("table-json-batch-response.txt"),
            contentType: "multipart/mixed; boundary=batchresponse_a6300377-d5d9-42e5-9cb6-6983a022b712"
        )
        #expect(success.parts.map(\.status) == [204, 204])
        #expect(success.parts[0].header("etag") == #"W/"datetime'2021-06-09T01%3A17%3A12.93486Z'""#)
        let failed = try AzureFixture.bytes("table-json-batch-response-failure.txt")
        do throws(TableServiceError) {
            _ = try TableBatchResponse.read(
                failed,
                contentType: "multipart/mixed; boundary=batchresponse_afbac488-b2b0-4030-812a-e28dc6004847"
            )
            Issue.record("a failed changeset read as a success")
        } catch {
            #expect(error.status == 400 && error.code == "InvalidDuplicateRow" && error.operationIndex == 1)
            #expect(error.message.hasPrefix("The batch request contains multiple changes"))
        }
    }

    @Test("a client's request reads back to the same operations")
    func clientRoundTrip() throws {
        let entity = everyTypeEntity(partitionKey: "p", rowKey: "a")
        var other = entity
        other.rowKey = "b"
        var third = entity
        third.rowKey = "c"
        let operations = [
            TableBatchOperation(
                .insert,
                table: "speakers",
                partitionKey: "p",
                rowKey: "a",
                entity: entity.content,
                returnNoContent: true,
                contentID: "1"
            ),
            TableBatchOperation(
                .update(ifMatch: "*"),
                table: "speakers",
                partitionKey: "p",
                rowKey: "b",
                entity: other.content,
                contentID: "2"
            ),
            TableBatchOperation(
                .insertOrMerge,
                table: "speakers",
                partitionKey: "p",
                rowKey: "c",
                entity: third.content,
                contentID: "3"
            ),
            TableBatchOperation(
                .delete(ifMatch: #"W/"datetime'2021-06-09T01%3A17%3A12.93486Z'""#),
                table: "speakers",
                partitionKey: "p",
                rowKey: "O'd",
                contentID: "4"
            ),
        ]
        let boundary = TableBatchRequest.newBoundary()
        let body = TableBatchRequest(operations: operations).write(
            endpoint: "http://127.0.0.1:10002/devstoreaccount1",
            boundary: boundary
        )
        let read = try TableBatchRequest.read(body, contentType: TableBatchRequest.contentType(boundary: boundary))
        #expect(read.operations.count == 4)
        for (a, b) in zip(read.operations, operations) {
            #expect(
                a.action == b.action && a.rowKey == b.rowKey && a.contentID == b.contentID
                    && a.returnNoContent == b.returnNoContent
            )
            #expect(a.entity?.properties.count == b.entity?.properties.count)
        }
    }

    @Test("a lone GET outside a changeset is a retrieve, and its response is read")
    func retrieve() throws {
        let body =
            "--batch_1\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nGET https://a.table.core.windows.net/t(PartitionKey='p',RowKey='r') HTTP/1.1\r\nAccept: application/json\r\n\r\n--batch_1--\r\n"
        let request = try read(body)
        #expect(!request.isChangeset && request.operations.map(\.action) == [.retrieve])
        let entity = Entity(
            partitionKey: "p",
            rowKey: "r",
            timestamp: time("2024-01-01T00:00:00Z"),
            properties: [Property("A", .int32(1))]
        )
        let part = TableBatchResponse.success(
            request.operations[0],
            etag: TableETag.of(entity),
            entity: entity,
            endpoint: AzureFixture.xplat
        )
        let boundaries = TableBatchResponse.newBoundaries()
        let written = TableBatchResponse(parts: [part], isChangeset: false).write(
            boundary: boundaries.batch,
            changesetBoundary: boundaries.changeset
        )
        let response = try TableBatchResponse.read(
            written,
            contentType: TableBatchResponse.contentType(boundary: boundaries.batch)
        )
        #expect(response.parts.first?.status == 200)
        #expect(try TableJSONReader.entity(response.parts[0].body).content == entity.content)
    }

    @Test("an Atom-era batch: Atom entry bodies in, Atom entries out")
    func atomBatch() throws {
        let entry = try AzureFixture.text("table-atom-insert-entity-request.xml")
        let part =
            "POST http://h/acct/t HTTP/1.1\r\nContent-Type: application/atom+xml;type=entry\r\nContent-Length: \(entry.utf8.count)\r\n\r\n"
            + entry
        let request = try read(batch([part]))
        let operation = try #require(request.operations.first)
        #expect(
            operation.action == .insert && operation.partitionKey == "part2"
                && operation.entity?["intValue"] == .int32(42)
        )
        var stored = try #require(operation.entity)
        stored.timestamp = time("2024-01-01T00:00:00Z")
        let response = TableBatchResponse.success(
            operation,
            etag: TableETag.of(stored),
            entity: stored,
            endpoint: AzureFixture.xplat,
            format: .atom
        )
        #expect(response.status == 201 && response.header("Content-Type") == "application/atom+xml;charset=utf-8")
        #expect(try Atom.read(response.body).first?.content == stored.content)
    }

    @Test("methods, If-Match and keys make the actions; bare LF line ends are taken")
    func actions() throws {
        let url = "http://h/acct/t(PartitionKey='p',RowKey='%@')"
        func part(_ method: String, _ row: String, ifMatch: String? = nil, body: Bool = true) -> String {
            "\(method) \(url.replacing("%@", with: row)) HTTP/1.1\r\n" + (ifMatch.map { "If-Match: \($0)\r\n" } ?? "")
                + "\r\n"
                + (body ? #"{"PartitionKey":"p","RowKey":"\#(row)"}"# : "")
        }
        let request = try read(
            batch([
                part("PUT", "a"), part("PUT", "b", ifMatch: "*"), part("MERGE", "c"),
                part("PATCH", "d", ifMatch: "W/\"x\""),
                part("DELETE", "e", ifMatch: "*", body: false), part("DELETE", "f", body: false),
            ]).replacing("\r\n", with: "\n")
        )
        #expect(
            request.operations.map(\.action) == [
                .insertOrReplace, .update(ifMatch: "*"), .insertOrMerge, .merge(ifMatch: "W/\"x\""),
                .delete(ifMatch: "*"), .delete(ifMatch: "*"),
            ]
        )
    }

    @Test("Azure's batch rules refuse the first operation that breaks them, with its index, not the request")
    func rules() throws {
        let hundredAndOne = failure(batch((0..<101).map { insert("r\($0)") }))
        #expect(hundredAndOne?.code == "InvalidInput" && hundredAndOne?.operationIndex == 100)
        #expect(failure(batch((0..<100).map { insert("r\($0)") })) == nil)
        let partitions = failure(batch([insert("a"), insert("b"), insert("c", partitionKey: "q")]))
        #expect(partitions?.code == "CommandsInBatchActOnDifferentPartitions" && partitions?.operationIndex == 2)
        let tables = failure(batch([insert("a"), insert("b", table: "u")]))
        #expect(tables?.code == "CommandsInBatchActOnDifferentPartitions" && tables?.operationIndex == 1)
        let duplicate = failure(batch([insert("a"), insert("a")]))
        #expect(duplicate?.code == "InvalidDuplicateRow" && duplicate?.operationIndex == 1)
        #expect(
            duplicate?.message
                == "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request."
        )
        let badEntity = failure(batch([insert("a"), "POST http://h/t HTTP/1.1\r\n\r\n{\"RowKey\":\"b\"}"]))
        #expect(badEntity?.code == "PropertiesNeedValue" && badEntity?.operationIndex == 1)
        let mismatch = failure(
            batch([
                "PUT http://h/t(PartitionKey='p',RowKey='x') HTTP/1.1\r\n\r\n{\"PartitionKey\":\"p\",\"RowKey\":\"y\"}"
            ])
        )
        #expect(mismatch?.code == "InvalidInput" && mismatch?.operationIndex == 0)
        let keysFromURL = try? read(
            batch(["MERGE http://h/t(PartitionKey='p',RowKey='x') HTTP/1.1\r\nIf-Match: *\r\n\r\n{\"A\":1}"])
        )
        #expect(keysFromURL?.operations.first?.entity?.rowKey == "x")
        // Each is the batch's refusal, answered inside a 202 (the operations before it were read).
        #expect(thrown(batch((0..<101).map { insert("r\($0)") })) == nil)
        #expect(try read(batch([insert("a"), insert("b"), insert("c", partitionKey: "q")])).operations.count == 2)
        let big = String(repeating: " ", count: 4 << 20)
        #expect(failure(batch([insert("a") + big]))?.status == 413)
    }

    @Test(
        "malformed batches are 400 InvalidInput, never a crash",
        arguments: [
            "", "garbage", "--batch_1\r\n",
            "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\n",
            "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1--\r\n--batch_1--\r\n",
            "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\nContent-Type: text/plain\r\n\r\nhello\r\n--changeset_1--\r\n--batch_1--\r\n",
            "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\nContent-Type: application/http\r\n\r\nnot a request line\r\n--changeset_1--\r\n--batch_1--\r\n",
            "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\nContent-Type: application/http\r\n\r\n\r\n--changeset_1--\r\n--batch_1--\r\n",
            "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\nContent-Type: application/http\r\n\r\nGET http://h/t(PartitionKey='p',RowKey='r') HTTP/1.1\r\n\r\n--changeset_1--\r\n--batch_1--\r\n",
            "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\nContent-Type: application/http\r\n\r\nPOST http://h/t HTTP/1.1\r\nno colon here\r\n\r\n{}\r\n--changeset_1--\r\n--batch_1--\r\n",
            "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\nContent-Type: application/http\r\n\r\nDELETE http://h/t HTTP/1.1\r\n\r\n--changeset_1--\r\n--batch_1--\r\n",
            "--batch_1\r\nContent-Type: application/http\r\n\r\nPOST http://h/t HTTP/1.1\r\n\r\n{\"PartitionKey\":\"p\",\"RowKey\":\"r\"}\r\n--batch_1--\r\n",
            "--batch_1\r\n\r\n--batch_1\r\n\r\n--batch_1--\r\n",
            "--batch_1\r\n--batch_1--\r\n", "--batch_1\n--batch_1\n--batch_1--", "--batch_1--",
            "\r\n--batch_1\r\n\r\n\r\n--batch_1--",
            "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\n--changeset_1--\r\n--batch_1--\r\n",
            "--batch_1\r\nContent-Type: multipart/mixed; boundary=batch_1\r\n\r\n--batch_1--\r\n",
        ]
    )
    func malformed(body: String) {
        let error = failure(body)
        #expect(error?.status == 400 && error?.code == "InvalidInput", "\(String(describing: error))")
    }

    @Test(
        "a Content-Type without a boundary, or not multipart, is 400 InvalidInput",
        arguments: [nil, "application/json", "multipart/mixed", "multipart/mixed; boundary="]
    )
    func noBoundary(contentType: String?) {
        #expect(failure(batch([insert("a")]), contentType: contentType)?.code == "InvalidInput")
    }

    @Test("the recorded request cut short anywhere, or with any byte changed, is read or refused, never trapped on")
    func cutAndMutated() throws {
        let recorded = try AzureFixture.bytes("table-json-batch-request.txt")
        let contentType = "multipart/mixed; boundary=batch_fakeId"
        for end in 0..<recorded.count {
            do {
                _ = try TableBatchRequest.read(Array(recorded[..<end]), contentType: contentType)
                // Only a cut inside the trailing line break after the closing delimiter leaves a whole batch.
                #expect(end >= recorded.count - 2, "cut at \(end) was read as a whole batch")
            } catch {
                #expect(error.status == 400)
            }
        }
        var state: UInt64 = 42
        for _ in 0..<2000 {
            var bytes = recorded
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[Int(state >> 33) % bytes.count] = UInt8(truncatingIfNeeded: state >> 17)
            _ = try? TableBatchRequest.read(bytes, contentType: contentType)
            _ = try? TableBatchResponse.read(bytes, contentType: contentType)
        }
    }

    @Test("bytes that are not UTF-8 in a part are refused, not trapped on")
    func invalidBytes() {
        var body = Array(batch([insert("a")]).utf8)
        body.insert(contentsOf: [0xFF, 0xFE, 0x80], at: body.count / 2)
        #expect(throws: TableServiceError.self) {
            try TableBatchRequest.read(body, contentType: "multipart/mixed; boundary=batch_1")
        }
    }
}
