import Foundation
import SpeakEasyData
import TestServer
import TestSupport
import Testing

/// List Blobs with `include=uncommittedblobs`, flat and with a delimiter, judged by
/// azure-storage-blob 12.31.1 (python/serve_uncommitted_listing.py, whose cases are ported from
/// Azurite's blob tests and cite them).
@Suite(
    "serve's listing of staged-only blobs judged by azure-storage-blob",
    .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable)
)
struct ServeUncommittedListingSDKTests {
    struct Seen: Decodable {
        var flat: [String]
        var flat_uncommitted: [String]
        var staged_size: Int
        var staged_etag: String?
        var staged_last_modified: String?
        var staged_content_type: String?
        var committed_size: Int
        var walk: [String]
        var walk_uncommitted: [String]
        var walk_inside: [String]
        var pages: [[String]]
        var walk_pages: [[String]]
    }

    @Test("a staged-only blob and a folder of them are listed with the option, in name order, and paged")
    func uncommittedBlobs() async throws {
        try await withRunningServer { server in
            let endpoint = "http://127.0.0.1:\(server.port(.blob))/\(DevelopmentAccount.name)"
            let output = try await offPool { try PythonSDK.run("serve_uncommitted_listing.py", [endpoint]) }
            let seen = try JSONDecoder().decode(Seen.self, from: Data(output))
            #expect(seen.flat == ["a", "c", "dir/kept"])
            #expect(seen.flat_uncommitted == ["a", "b", "c", "dir/kept", "path/uncommittedblob"])
            #expect(seen.staged_size == 0)
            #expect(seen.staged_etag == nil, "Azure lists a staged-only blob without an ETag")
            #expect(seen.staged_last_modified == nil)
            #expect(seen.staged_content_type == nil)
            #expect(seen.committed_size == 5)
            // The SDK yields a page's prefixes before its blobs (see ServeBlobPropertiesSDKTests).
            #expect(seen.walk == ["dir/", "a", "c"])
            #expect(seen.walk_uncommitted == ["dir/", "path/", "a", "b", "c"])
            #expect(seen.walk_inside == ["path/uncommittedblob"])
            #expect(seen.pages == [["a", "b"], ["c", "dir/kept"], ["path/uncommittedblob"]])
            #expect(seen.walk_pages == [["a", "b"], ["dir/", "c"], ["path/"]])
        }
    }
}
