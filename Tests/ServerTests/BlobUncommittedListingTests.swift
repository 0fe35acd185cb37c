import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// List Blobs with `include=uncommittedblobs`: a blob that has only staged blocks (Put Block without
/// Put Block List) is listed, and with a `delimiter` so is a folder that holds only such blobs
/// (issue 48 §3).
@Suite("serve: List Blobs with include=uncommittedblobs")
struct BlobUncommittedListingTests {
    let rules = BlobIssue28RuleTests()

    func stage(_ server: RunningServer, _ path: String) async throws {
        let reply = try await rules.request(
            server,
            "PUT",
            path,
            query: "comp=block&blockid=MQ%3D%3D",
            body: Array("HelloWorld".utf8)
        )
        #expect(reply.status == 201, "\(reply.text)")
    }

    /// The `<Name>`s of the `<BlobPrefix>`es, or of the `<Blob>`s, of a listing, in order.
    func names(_ reply: HTTPReply, of element: String) -> [String] {
        reply.text.components(separatedBy: "<\(element)><Name>").dropFirst().map {
            String($0.prefix { $0 != "<" })
        }
    }

    /// The `<Blob>` of the blob with only staged blocks in Azure's recorded reply, byte for byte.
    func recordedStagedBlob() throws -> String {
        let text = try String(
            contentsOfFile: TestPaths.azureFixtures + "/blob-list-blobs-uncommitted-response.xml",
            encoding: .utf8
        )
        let start = try #require(text.range(of: "<Blob><Name>blob1</Name>"))
        let end = try #require(text.range(of: "</Blob>", range: start.upperBound..<text.endIndex))
        return String(text[start.lowerBound..<end.upperBound])
    }

    @Test("a folder that holds only a staged blob is a BlobPrefix with include=uncommittedblobs, and absent without")
    func folderOfStagedBlob() async throws {
        // Azurite: tests/blob/apis/container.test.ts "should only show uncommitted blobs in
        // listBlobHierarchySegment with uncommittedblobs option".
        try await withRunningServer { server in
            #expect(try await rules.request(server, "PUT", "staged", query: "restype=container").status == 201)
            try await stage(server, "staged/path/uncommittedblob")
            let with = try await rules.request(
                server,
                "GET",
                "staged",
                query: "restype=container&comp=list&delimiter=%2F&include=uncommittedblobs"
            )
            #expect(with.status == 200, "\(with.text)")
            #expect(names(with, of: "BlobPrefix") == ["path/"], "\(with.text)")
            #expect(names(with, of: "Blob").isEmpty)
            let without = try await rules.request(
                server,
                "GET",
                "staged",
                query: "restype=container&comp=list&delimiter=%2F"
            )
            #expect(without.status == 200)
            #expect(names(without, of: "BlobPrefix").isEmpty, "\(without.text)")
            let inside = try await rules.request(
                server,
                "GET",
                "staged",
                query: "restype=container&comp=list&delimiter=%2F&prefix=path%2F&include=uncommittedblobs"
            )
            #expect(names(inside, of: "Blob") == ["path/uncommittedblob"], "\(inside.text)")
        }
    }

    @Test("a staged blob is listed as Azure lists one, in name order among the committed, and paged with them")
    func stagedBlobAmongCommitted() async throws {
        // Azure's reply: azure-sdk-for-python's recording of test_list_blobs_with_include_uncommittedblobs
        // (Tests/Fixtures/azure/blob-list-blobs-uncommitted-response.xml).
        try await withRunningServer { server in
            #expect(try await rules.request(server, "PUT", "mixed", query: "restype=container").status == 201)
            try await stage(server, "mixed/blob1")
            #expect(try await rules.put(server, "mixed/blob2", "hello world").status == 201)
            #expect(try await rules.put(server, "mixed/blob0", "first").status == 201)
            let committed = try await rules.request(server, "GET", "mixed", query: "restype=container&comp=list")
            #expect(names(committed, of: "Blob") == ["blob0", "blob2"], "\(committed.text)")
            let all = try await rules.request(
                server,
                "GET",
                "mixed",
                query: "restype=container&comp=list&include=uncommittedblobs"
            )
            #expect(names(all, of: "Blob") == ["blob0", "blob1", "blob2"], "\(all.text)")
            let recorded = try recordedStagedBlob()
            #expect(all.text.contains(recorded), "\(all.text)")
            var pages: [[String]] = []
            var marker = ""
            repeat {
                let page = try await rules.request(
                    server,
                    "GET",
                    "mixed",
                    query: "restype=container&comp=list&include=metadata,uncommittedblobs&maxresults=1"
                        + (marker.isEmpty ? "" : "&marker=\(marker)")
                )
                #expect(page.status == 200, "\(page.text)")
                pages.append(names(page, of: "Blob"))
                let next = page.text.components(separatedBy: "<NextMarker>").dropFirst().first
                marker = next.map { String($0.prefix { $0 != "<" }) } ?? ""
            } while !marker.isEmpty && pages.count < 10
            #expect(pages == [["blob0"], ["blob1"], ["blob2"]])
        }
    }
}
