import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// What Azure answers where `serve` once answered otherwise, each from Azurite's blob tests
/// (Azure/Azurite, tests/blob/) or its handlers (issue 48 §3).
@Suite("serve: Azure's blob answers")
struct BlobAzureAnswersTests {
    let rules = BlobIssue28RuleTests()

    @Test("Set Container Metadata honours If-Modified-Since: 412 ConditionNotMet when not modified since")
    func containerMetadataIfModifiedSince() async throws {
        // Azurite: tests/blob/apis/container.test.ts "setMetadata should (not) work with (invalid)
        // conditional headers".
        try await withRunningServer { server in
            #expect(try await rules.request(server, "PUT", "meta", query: "restype=container").status == 201)
            let future = try await rules.request(
                server,
                "PUT",
                "meta",
                query: "restype=container&comp=metadata",
                headers: ["If-Modified-Since": "Sat, 01 Jan 2118 00:00:00 GMT", "x-ms-meta-a": "1"]
            )
            #expect(future.status == 412, "\(future.text)")
            #expect(future.errorCode == "ConditionNotMet")
            let properties = try await rules.request(server, "GET", "meta", query: "restype=container")
            #expect(properties.header("x-ms-meta-a") == nil, "the refused write changed nothing")
            let past = try await rules.request(
                server,
                "PUT",
                "meta",
                query: "restype=container&comp=metadata",
                headers: ["If-Modified-Since": "Mon, 01 Jan 2018 00:00:00 GMT", "x-ms-meta-a": "1"]
            )
            #expect(past.status == 200, "\(past.text)")
            let missing = try await rules.request(
                server,
                "PUT",
                "nowhere",
                query: "restype=container&comp=metadata",
                headers: ["If-Modified-Since": "Mon, 01 Jan 2018 00:00:00 GMT"]
            )
            #expect(missing.status == 404)
            #expect(missing.errorCode == "ContainerNotFound")
        }
    }

    @Test("HEAD of a missing blob answers 404 with x-ms-error-code and no Content-Type; a GET keeps its XML body")
    func headOfMissingBlob() async throws {
        // Azurite: tests/blob/apis/blob.test.ts "get properties response should not set content-type".
        try await withRunningServer { server in
            #expect(try await rules.request(server, "PUT", "heads", query: "restype=container").status == 201)
            let head = try await rules.request(server, "HEAD", "heads/none.txt")
            #expect(head.status == 404)
            #expect(head.header("x-ms-error-code") == "BlobNotFound")
            #expect(head.header("Content-Type") == nil, "\(head.headers)")
            let get = try await rules.request(server, "GET", "heads/none.txt")
            #expect(get.status == 404)
            #expect(get.header("Content-Type") == "application/xml")
            #expect(get.errorCode == "BlobNotFound")
        }
    }

    @Test("Put Block with an id of another length than the blob's uncommitted blocks is 400 InvalidBlobOrBlock")
    func blockIDLength() async throws {
        // Azure's Put Block: block ids of a blob are "the same size for each block"; Azurite:
        // src/blob/persistence/LokiBlobMetadataStore.ts `stageBlock`.
        try await withRunningServer { server in
            #expect(try await rules.request(server, "PUT", "blocks", query: "restype=container").status == 201)
            func stage(_ id: String) async throws -> HTTPReply {
                try await rules.request(
                    server,
                    "PUT",
                    "blocks/b.bin",
                    query: "comp=block&blockid=\(id)",
                    body: Array("block".utf8)
                )
            }
            #expect(try await stage("AAAA").status == 201, "the first block sets the length (3 bytes)")
            #expect(try await stage("AAAB").status == 201, "another of the same length")
            let longer = try await stage("AAAAAAAA")
            #expect(longer.status == 400, "\(longer.text)")
            #expect(longer.errorCode == "InvalidBlobOrBlock")
            let list = try await rules.request(server, "GET", "blocks/b.bin", query: "comp=blocklist&blocklisttype=all")
            #expect(!list.text.contains("AAAAAAAA"), "the refused block was not staged: \(list.text)")
            // Another blob's blocks do not count.
            let other = try await rules.request(
                server,
                "PUT",
                "blocks/c.bin",
                query: "comp=block&blockid=AAAAAAAA",
                body: Array("block".utf8)
            )
            #expect(other.status == 201)
        }
    }

    @Test(
        "Put Blob over a blob: a passing If-Match (If-None-Match) leaves If-Unmodified-Since (If-Modified-Since) unevaluated"
    )
    func conditionOrder() async throws {
        // RFC 9110 §13.2.2; Azurite: src/blob/conditions/WriteConditionalHeadersValidator.ts and
        // tests/blob/conditions.test.ts.
        try await withRunningServer { server in
            #expect(try await rules.request(server, "PUT", "order", query: "restype=container").status == 201)
            let etag = try #require(try await rules.put(server, "order/b.txt", "first").header("ETag"))
            let past = "Sat, 01 Jan 2000 00:00:00 GMT"
            let future = "Sat, 01 Jan 2118 00:00:00 GMT"
            let matched = try await rules.put(
                server,
                "order/b.txt",
                "second",
                headers: ["If-Match": etag, "If-Unmodified-Since": past]
            )
            #expect(matched.status == 201, "\(matched.text)")
            let noneMatched = try await rules.put(
                server,
                "order/b.txt",
                "third",
                headers: ["If-None-Match": "\"0x8D000000000000\"", "If-Modified-Since": future]
            )
            #expect(noneMatched.status == 201, "\(noneMatched.text)")
            #expect(try await rules.request(server, "GET", "order/b.txt").text == "third")
            // Each alone still fails as before.
            #expect(
                try await rules.put(server, "order/b.txt", "x", headers: ["If-Unmodified-Since": past]).status == 412
            )
            #expect(
                try await rules.put(server, "order/b.txt", "x", headers: ["If-Modified-Since": future]).status == 412
            )
            #expect(try await rules.put(server, "order/b.txt", "x", headers: ["If-Match": etag]).status == 412)
        }
    }
}
