import Foundation
import SpeakEasyData
import TestServer
import TestSupport
import Testing

/// `serve`'s Blob service judged by azure-storage-blob 12.31.1 (python/serve_blob_sdk.py): the SDK
/// signs, sends and reads every request itself, against a server on a free loopback port.
@Suite("serve judged by azure-storage-blob", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct ServeBlobSDKTests {
    struct Seen: Decodable {
        struct Properties: Decodable {
            var size: Int
            var content_type: String
            var md5: String?
            var etag: String
            var blob_type: String
        }

        var duplicate_container: String
        var photo_properties: Properties
        var photo_md5: String
        var photo_download: String
        var large_md5: String
        var large_download: String
        var large_size: Int
        var range: Bool
        var pages: [[String]]
        var containers: [String]
        var access: [String: String?]
        var anonymous: Anonymous
        var missing: String
        var wrong_key: String
        var sas_read: String
        var sas_write: String
        var after_delete: [String]
        var containers_after: [String]
    }

    struct Anonymous: Decodable {
        var photo: [StringOrInt]
        var `private`: [StringOrInt]
        var photos_list: [StringOrInt]
        var listed_list: Int
    }

    enum StringOrInt: Decodable, Equatable {
        case int(Int)
        case string(String?)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Int.self) {
                self = .int(value)
            } else {
                self = .string(try container.decode(String?.self))
            }
        }
    }

    @Test("containers, small and block uploads, ranges, paging, properties, anonymous access, keys and SAS")
    func blobSDK() async throws {
        try await withRunningServer { server in
            let endpoint = "http://127.0.0.1:\(server.port(.blob))/\(DevelopmentAccount.name)"
            let output = try await offPool { try PythonSDK.run("serve_blob_sdk.py", [endpoint]) }
            let seen = try JSONDecoder().decode(Seen.self, from: Data(output))
            #expect(seen.duplicate_container == "ContainerAlreadyExists")
            #expect(seen.photo_properties.size == 768)
            #expect(seen.photo_properties.content_type == "image/jpeg")
            #expect(seen.photo_properties.md5 == seen.photo_md5, "Content-MD5 is the MD5 of the bytes")
            #expect(seen.photo_properties.blob_type == "BlobType.BLOCKBLOB")
            #expect(seen.photo_download == seen.photo_md5)
            #expect(seen.large_download == seen.large_md5, "a blob uploaded in blocks downloads whole")
            #expect(seen.large_size == 5000)
            #expect(seen.range)
            #expect(seen.pages == [["list/a.txt", "list/b.txt"], ["list/c.txt", "list/d.txt"], ["list/e.txt"]])
            #expect(seen.containers == ["listed", "photos", "private"])
            #expect(seen.access == ["listed": "container", "photos": "blob", "private": nil])
            #expect(seen.anonymous.photo == [.int(200), .string(seen.photo_md5)])
            #expect(seen.anonymous.private == [.int(404), .string("ResourceNotFound")])
            #expect(seen.anonymous.photos_list == [.int(404), .string("ResourceNotFound")])
            #expect(seen.anonymous.listed_list == 200)
            #expect(seen.missing == "BlobNotFound")
            #expect(seen.wrong_key == "AuthenticationFailed")
            #expect(seen.sas_read == "secret")
            #expect(seen.sas_write == "AuthorizationPermissionMismatch")
            #expect(seen.after_delete == ["large.bin"])
            #expect(seen.containers_after == ["listed", "photos"])
        }
    }
}
