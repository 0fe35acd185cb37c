import Foundation
import SpeakEasyData
import TestServer
import TestSupport
import Testing

/// Metadata, content headers, SAS header overrides, List Blobs with a delimiter, Get Block List and
/// Put Blob's ETags, judged by azure-storage-blob 12.31.1 (python/serve_blob_properties.py, whose
/// cases are ported from Azurite's blob tests and cite them).
@Suite("serve's blob properties judged by azure-storage-blob", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct ServeBlobPropertiesSDKTests {
    struct Settings: Decodable, Equatable {
        var content_type: String?
        var cache_control: String?
        var content_disposition: String?
        var content_encoding: String?
        var content_language: String?
    }

    struct Listed: Decodable {
        var name: String
        var metadata: [String: String]?
        var content_type: String?
        var cache_control: String?
    }

    struct BlockBlob: Decodable {
        var metadata: [String: String]
        var content_type: String?
        var content_language: String?
    }

    struct Seen: Decodable {
        var container_metadata: [String: String]
        var container_metadata_set: [String: String]
        var container_listed_metadata: [String: [String: String]?]
        var put_metadata: [String: String]
        var put_settings: Settings
        var get_metadata: [String: String]
        var get_settings: Settings
        var new_etag: Bool
        var if_match_old: String
        var set_metadata: [String: String]
        var set_settings: Settings
        var metadata_after_set_headers: [String: String]
        var listed: [Listed]
        var invalid_metadata: [String: String]
        var invalid_set_metadata: String
        var invalid_md5: String
        var sas_overrides: Settings
        var block_list: [String: [[StringOrInt]]]
        var block_list_committed: [[StringOrInt]]
        var block_blob: BlockBlob
        var walk_top: [String]
        var walk_photos: [String]
        var walk_pages: [[String]]
        var walk_recursive: [String]
    }

    typealias StringOrInt = ServeBlobSDKTests.StringOrInt

    @Test("metadata, content headers, SAS overrides, delimiter listings, block lists and new ETags")
    func properties() async throws {
        try await withRunningServer { server in
            let endpoint = "http://127.0.0.1:\(server.port(.blob))/\(DevelopmentAccount.name)"
            let output = try await offPool { try PythonSDK.run("serve_blob_properties.py", [endpoint]) }
            let seen = try JSONDecoder().decode(Seen.self, from: Data(output))
            #expect(seen.container_metadata == ["owner": "speakers", "Team": "events"])
            #expect(seen.container_metadata_set == ["changed": "yes"])
            #expect(seen.container_listed_metadata["docs"] == ["changed": "yes"])
            let written = Settings(
                content_type: "text/plain",
                cache_control: "max-age=60",
                content_disposition: "attachment; filename=a.txt",
                content_encoding: "identity",
                content_language: "en-GB"
            )
            #expect(seen.put_metadata == ["mtime": "1700000000.5", "Owner": "ada"], "x-ms-meta-* of Put Blob are kept")
            #expect(seen.put_settings == written)
            #expect(seen.get_metadata == seen.put_metadata)
            #expect(seen.get_settings == written)
            #expect(seen.new_etag, "Put Blob of the same bytes gives a new ETag")
            #expect(seen.if_match_old == "ConditionNotMet")
            #expect(seen.set_metadata == ["replaced": "true"])
            // Set Blob Properties sets the content headers together, clearing what it was not given.
            #expect(seen.set_settings == Settings(content_type: "application/json", cache_control: "no-cache"))
            #expect(seen.metadata_after_set_headers == ["replaced": "true"])
            #expect(seen.listed.first { $0.name == "a.txt" }?.metadata == ["replaced": "true"])
            #expect(seen.listed.first { $0.name == "a.txt" }?.cache_control == "no-cache")
            #expect(
                seen.invalid_metadata == [
                    "1invalid": "InvalidMetadata", "invalid.name": "InvalidMetadata", "invalid-name": "InvalidMetadata",
                ]
            )
            #expect(seen.invalid_set_metadata == "InvalidMetadata")
            #expect(seen.invalid_md5 == "InvalidMd5")
            #expect(
                seen.sas_overrides
                    == Settings(
                        content_type: "text/csv",
                        cache_control: "private",
                        content_disposition: "inline",
                        content_encoding: "gzip",
                        content_language: "fr"
                    )
            )
            #expect(seen.block_list["committed"] == [[.string("Mg=="), .int(10)], [.string("MQ=="), .int(10)]])
            #expect(seen.block_list["uncommitted"] == [[.string("NA=="), .int(6)]])
            #expect(seen.block_list_committed == [[.string("Mg=="), .int(10)], [.string("MQ=="), .int(10)]])
            #expect(seen.block_blob.metadata == ["kind": "blocks"])
            #expect(seen.block_blob.content_type == "application/x-test")
            #expect(seen.block_blob.content_language == "de")
            // The SDK yields a page's prefixes before its blobs (azure/storage/blob/_list_blobs_helper.py:
            // `blob_prefixes + blob_items`); the server interleaves them in name order, as Azure does.
            #expect(seen.walk_top == ["photos/", "z/", "a.txt", "photos0.txt", "zz.txt"])
            #expect(seen.walk_photos == ["photos/2024/", "photos/cover.jpg"])
            #expect(
                seen.walk_pages == [["photos/", "a.txt"], ["z/", "photos0.txt"], ["zz.txt"]],
                "a prefix counts as one result"
            )
            #expect(
                seen.walk_recursive.sorted() == [
                    "a.txt", "photos/2024/1.jpg", "photos/2024/2.jpg", "photos/cover.jpg", "photos0.txt",
                    "z/deep/x.txt", "zz.txt",
                ]
            )
        }
    }
}
