import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// Reading photos without a key, as a browser or the app does: what the container's public access
/// level allows, and nothing else.
@Suite("serve: anonymous blob reads")
struct BlobAnonymousTests {
    static let photo = Array("not really a jpeg, but bytes".utf8)

    /// A server whose store holds a photo in containers of each access level.
    func withPhotos<T: Sendable>(_ body: (RunningServer, String) async throws -> T) async throws -> T {
        try await withRunningServer { server in
            let store = try StorageLocation.local(path: server.store).open(readOnly: false)
            for access in ContainerAccess.allCases {
                try await store.createContainerIfNotExists("\(access.rawValue)-photos", access: access)
                _ = try await store.putBlob(
                    container: "\(access.rawValue)-photos",
                    name: "speakers/ada.jpg",
                    contentType: "image/jpeg",
                    data: Self.photo
                )
            }
            return try await body(server, "http://127.0.0.1:\(server.port(.blob))/\(DevelopmentAccount.name)")
        }
    }

    @Test("a public photo downloads with Azure's headers; a range gives 206 and Content-Range")
    func download() async throws {
        try await withPhotos { _, base in
            for container in ["blob-photos", "container-photos"] {
                let reply = try await send("GET", "\(base)/\(container)/speakers/ada.jpg")
                #expect(reply.status == 200)
                #expect(reply.body == Self.photo)
                #expect(reply.header("Content-Type") == "image/jpeg")
                #expect(reply.header("Content-MD5") == "hQ7qIQogQ+FI+RDY/b6J8A==", "openssl md5 -binary | base64")
                #expect(reply.header("ETag")?.hasPrefix("\"0x") == true)
                #expect(reply.header("x-ms-blob-type") == "BlockBlob")
                #expect(reply.header("x-ms-request-id")?.count == 36)
                #expect(reply.header("x-ms-version") != nil)
                #expect(reply.header("Date")?.hasSuffix("GMT") == true)
            }
            let ranged = try await send(
                "GET",
                "\(base)/blob-photos/speakers/ada.jpg",
                headers: ["x-ms-range": "bytes=4-9"]
            )
            #expect(ranged.status == 206)
            #expect(ranged.body == Array(Self.photo[4...9]))
            #expect(ranged.header("Content-Range") == "bytes 4-9/\(Self.photo.count)")
            let open = try await send("GET", "\(base)/blob-photos/speakers/ada.jpg", headers: ["Range": "bytes=20-"])
            #expect(open.body == Array(Self.photo[20...]))
            let past = try await send("GET", "\(base)/blob-photos/speakers/ada.jpg", headers: ["Range": "bytes=1000-"])
            #expect(past.status == 416)
            #expect(past.errorCode == "InvalidRange")
            #expect(past.header("Content-Range") == "bytes */\(Self.photo.count)")
            let malformed = try await send(
                "GET",
                "\(base)/blob-photos/speakers/ada.jpg",
                headers: ["Range": "bytes=x-y"]
            )
            #expect(malformed.status == 200, "a malformed range is ignored, as Azure does")
            let etag = try #require(malformed.header("ETag"))
            let unchanged = try await send(
                "GET",
                "\(base)/blob-photos/speakers/ada.jpg",
                headers: ["If-None-Match": etag]
            )
            #expect(unchanged.status == 304)
        }
    }

    @Test("what the access level does not allow answers 404 ResourceNotFound, as if it did not exist")
    func refused() async throws {
        try await withPhotos { _, base in
            for (method, path) in [
                ("GET", "/private-photos/speakers/ada.jpg"), ("GET", "/blob-photos?restype=container&comp=list"),
                ("GET", "/blob-photos?restype=container"), ("GET", "/?comp=list"), ("PUT", "/container-photos/new.jpg"),
                ("DELETE", "/container-photos/speakers/ada.jpg"), ("PUT", "/another?restype=container"),
            ] {
                let reply = try await send(
                    method,
                    base + path,
                    headers: ["x-ms-blob-type": "BlockBlob"],
                    body: method == "PUT" ? [1] : nil
                )
                #expect(reply.status == 404, "\(method) \(path): \(reply.status) \(reply.text)")
                #expect(reply.errorCode == "ResourceNotFound", "\(method) \(path)")
                #expect(reply.header("x-ms-error-code") == "ResourceNotFound")
            }
            let listed = try await send("GET", base + "/container-photos?restype=container&comp=list")
            #expect(listed.status == 200)
            #expect(listed.text.contains("<Name>speakers/ada.jpg</Name>"))
        }
    }

    @Test("a photo URL that seed writes opens, under the local account's own name")
    func seededURL() async throws {
        try await withRunningServer(
            configure: { $0.accountAliases = [StorageLocation.localAccountName] },
            { server in
                let store = try StorageLocation.local(path: server.store).open(readOnly: false)
                try await store.createContainerIfNotExists("speakers", access: .blob)
                _ = try await store.putBlob(
                    container: "speakers",
                    name: "Zoe Müller.png",
                    contentType: "image/png",
                    data: Self.photo
                )
                let url = store.blobURL(container: "speakers", blob: "Zoe Müller.png").replacingOccurrences(
                    of: ":10000/",
                    with: ":\(server.port(.blob))/"
                )
                let reply = try await send("GET", url)
                #expect(reply.status == 200, "\(url)")
                #expect(reply.body == Self.photo)
            }
        )
    }
}
