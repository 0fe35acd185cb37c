import Foundation
import SpeakEasyData
import Testing

/// The Table service's wire bodies (SpeakEasyProtocol/Tables) against the official Python SDKs:
/// azure-data-tables 12.7.0 reads our query responses and builds the `$batch` requests our reader
/// takes, then reads our batch responses, failure and failing index included; azure-storage 0.20.3
/// reads our Atom feed and entry.
///
/// Skipped unless SPEAKEASY_INTEROP_PYTHON names the virtualenv's python; on CI they always run.
@Suite("Table wire interop with the Azure SDKs", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct TableWireInteropTests {
    static let endpoint = TableEndpoint(url: "http://127.0.0.1:10002/devstoreaccount1", account: "devstoreaccount1")

    /// The interop entities without their ETags: the writer derives them from the Timestamps, and
    /// must arrive at the ETags the entities were given (Azure's trimmed form).
    static var withoutETags: [Entity] {
        (InteropEntities.common + [InteropEntities.jsonOnly]).map { entity in
            var copy = entity
            copy.etag = nil
            return copy
        }
    }

    @Test(
        "azure-data-tables reads our query responses to the same entities, types and ETags",
        arguments: [JSONMetadata.minimal, .full]
    )
    func sdkReadsQueryResponses(level: JSONMetadata) throws {
        try withScratchDirectory { scratch in
            let path = scratch + "/page.json"
            let body = TableJSONWriter(endpoint: Self.endpoint, metadata: level).queryResponse(
                Self.withoutETags,
                table: "speakers"
            )
            try Data(body).write(to: URL(fileURLWithPath: path))
            let theirs = try PythonSDK.dump("tables_json_read.py", [path])
            Comparison().expectSame(
                ours: InteropEntities.common + [InteropEntities.jsonOnly],
                theirs: theirs,
                "\(level) query response"
            )
        }
    }

    @Test("at nometadata, azure-data-tables and our reader read our query response alike")
    func sdkReadsNoMetadata() throws {
        try withScratchDirectory { scratch in
            let path = scratch + "/page.json"
            let body = TableJSONWriter(endpoint: Self.endpoint, metadata: .none).queryResponse(
                Self.withoutETags,
                table: "speakers"
            )
            try Data(body).write(to: URL(fileURLWithPath: path))
            let theirs = try PythonSDK.dump("tables_json_read.py", [path])
            Comparison(etags: false).expectSame(
                ours: try TableJSONReader.entities(body),
                theirs: theirs,
                "nometadata query response"
            )
        }
    }

    @Test("azure-data-tables' transaction reads into the operations it was given")
    func weReadTheSDKsBatch() throws {
        try withScratchDirectory { scratch in
            _ = try PythonSDK.run("tables_batch.py", [scratch])
            let request = try Self.recordedRequest(scratch)
            #expect(request.isChangeset)
            #expect(
                request.operations.map(\.action) == [
                    .insert, .insertOrReplace, .insertOrMerge, .update(ifMatch: "*"), .merge(ifMatch: "*"),
                    .delete(ifMatch: "*"),
                ]
            )
            #expect(request.operations.map(\.rowKey) == ["ada", "O'Brien", "grace", "linus", "ken", "old"])
            #expect(request.operations.allSatisfy { $0.table == "speakers" && $0.partitionKey == "speaker" })
            #expect(request.operations.map(\.contentID) == ["0", "1", "2", "3", "4", "5"])
            let ada = try #require(request.operations.first?.entity)
            #expect(ada["Followers"] == .int64(1_099_511_627_776))
            #expect(ada["Rating"] == .double(4.5))
            #expect(ada["SessionCount"] == .int32(3))
            #expect(ada["FirstTalk"] == .dateTime(try EdmDateTime(parsing: "1843-07-01T09:00:00Z")))
            #expect(ada["SpeakerId"] == .guid(EdmGuid("c9da6455-213d-42c9-9a79-3e9149a57833")!))
            #expect(ada["Avatar"] == .binary([0, 1, 0x68, 0x69]))
        }
    }

    @Test("azure-data-tables reads our batch response: every operation's ETag")
    func sdkReadsOurBatchSuccess() throws {
        try withScratchDirectory { scratch in
            _ = try PythonSDK.run("tables_batch.py", [scratch])
            let request = try Self.recordedRequest(scratch)
            let etags = request.operations.indices.map {
                TableETag.weak(EdmDateTime(uncheckedTicks: EdmDateTime.unixEpoch.ticks + Int64($0) * 1_000))
            }
            let parts = zip(request.operations, etags).map { operation, etag in
                TableBatchResponse.success(
                    operation,
                    etag: operation.action == .delete(ifMatch: "*") ? nil : etag,
                    endpoint: Self.endpoint
                )
            }
            let outcome = try Self.answer(TableBatchResponse(parts: parts), scratch: scratch)
            #expect(outcome.outcome == "ok")
            #expect(outcome.results?.dropLast().map(\.etag) == etags.dropLast().map { $0 })
        }
    }

    @Test("azure-data-tables reads our failed changeset as a TableTransactionError with the failing index")
    func sdkReadsOurBatchFailure() throws {
        try withScratchDirectory { scratch in
            _ = try PythonSDK.run("tables_batch.py", [scratch])
            let request = try Self.recordedRequest(scratch)
            let error = TableServiceError(
                status: 404,
                code: "ResourceNotFound",
                "The specified resource does not exist.",
                operationIndex: 3
            )
            let part = TableBatchResponse.failure(
                error,
                contentID: request.operations[3].contentID,
                format: .json(.minimal),
                requestID: UUID().uuidString.lowercased(),
                time: .now()
            )
            let outcome = try Self.answer(TableBatchResponse(parts: [part]), scratch: scratch)
            #expect(outcome.outcome == "error")
            #expect(outcome.type == "TableTransactionError")
            #expect(outcome.status == 404 && outcome.code == "ResourceNotFound" && outcome.index == 3)
        }
    }

    @Test("azure-storage 0.20.3 reads our Atom feed and entry to the same entities")
    func legacySDKReadsOurAtom() throws {
        try withScratchDirectory { scratch in
            let writer = TableAtomWriter(endpoint: Self.endpoint)
            let feedPath = scratch + "/feed.xml"
            try Data(try writer.feed(Self.withoutETags.dropLast(), table: "speakers")).write(
                to: URL(fileURLWithPath: feedPath)
            )
            let theirs = try PythonSDK.dump("storage_atom_read.py", [feedPath])
            AtomInteropTests.sdkReading.expectSame(
                ours: InteropEntities.common,
                theirs: theirs,
                "our Atom feed, read by azure-storage"
            )
            let entryPath = scratch + "/entry.xml"
            try Data(try writer.entry(Self.withoutETags[0], table: "speakers")).write(
                to: URL(fileURLWithPath: entryPath)
            )
            let entry = try PythonSDK.dump("storage_atom_read.py", [entryPath])
            AtomInteropTests.sdkReading.expectSame(
                ours: [InteropEntities.common[0]],
                theirs: entry,
                "our Atom entry, read by azure-storage"
            )
        }
    }

    @Test("azure-storage 0.20.3 reads our Atom table list, and we read its Create Table body")
    func legacySDKTables() throws {
        try withScratchDirectory { scratch in
            let listPath = scratch + "/tables.xml"
            let createPath = scratch + "/create.xml"
            try Data(TableAtomWriter(endpoint: Self.endpoint).tablesFeed(["speakers", "events"])).write(
                to: URL(fileURLWithPath: listPath)
            )
            let output = try PythonSDK.run("storage_atom_tables.py", [listPath, "newTable", createPath])
            #expect(try JSONDecoder().decode([String].self, from: Data(output)) == ["speakers", "events"])
            let body = Array(try Data(contentsOf: URL(fileURLWithPath: createPath)))
            #expect(try TableNameBody.read(body, contentType: "application/atom+xml") == "newTable")
        }
    }

    // MARK: - Support

    struct Outcome: Decodable {
        struct Result: Decodable { var etag: String? }
        var outcome: String
        var type: String?
        var status: Int?
        var code: String?
        var index: Int?
        var results: [Result]?
    }

    static func recordedRequest(_ scratch: String) throws -> TableBatchRequest {
        let body = Array(try Data(contentsOf: URL(fileURLWithPath: scratch + "/request.bin")))
        let contentType = try String(contentsOfFile: scratch + "/request-content-type.txt", encoding: .utf8)
        return try TableBatchRequest.read(body, contentType: contentType)
    }

    /// Runs the SDK's transaction again, answered with `response`.
    static func answer(_ response: TableBatchResponse, scratch: String) throws -> Outcome {
        let boundaries = TableBatchResponse.newBoundaries()
        let path = scratch + "/response.bin"
        try Data(response.write(boundary: boundaries.batch, changesetBoundary: boundaries.changeset)).write(
            to: URL(fileURLWithPath: path)
        )
        let output = try PythonSDK.run(
            "tables_batch.py",
            [scratch, path, TableBatchResponse.contentType(boundary: boundaries.batch)]
        )
        return try JSONDecoder().decode(Outcome.self, from: Data(output))
    }
}
