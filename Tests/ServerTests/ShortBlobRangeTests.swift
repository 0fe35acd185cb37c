import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// A blob whose stored bytes were changed behind the store's back, shorter than its recorded length
/// (issue 48 §4.7): a ranged GET never claims more bytes than it sends.
@Suite("serve: a blob shorter than its recorded length")
struct ShortBlobRangeTests {
    @Test("Content-Range and Content-Length agree with the bytes sent; a range past them is 416")
    func shortRange() async throws {
        let sqlite3 = try #require(
            ["/usr/bin/sqlite3", "/bin/sqlite3", "/usr/local/bin/sqlite3"].first {
                FileManager.default.isExecutableFile(atPath: $0)
            },
            "the sqlite3 shell changes the store's bytes (apt-get install sqlite3)"
        )
        try await withRunningServer { server in
            let store = try StorageLocation.local(path: server.store).open(readOnly: false)
            try await store.createContainerIfNotExists("photos", access: .blob)
            let photo = [UInt8](repeating: UInt8(ascii: "p"), count: 2464)
            _ = try await store.putBlob(container: "photos", name: "ada.jpg", contentType: "image/jpeg", data: photo)
            // The content becomes 3 bytes; the recorded size, MD5 and ETag stay.
            let changed = try await Task.detached {
                try ChildProcess.run(
                    sqlite3,
                    [
                        "-batch", "-cmd", ".timeout 5000", server.store,
                        "UPDATE blobs SET data = X'414243' WHERE container = 'photos' AND name = 'ada.jpg'",
                    ],
                    environment: [:]
                )
            }.value
            #expect(changed.status == 0, "\(String(decoding: changed.stderr, as: UTF8.self))")
            let url = "http://127.0.0.1:\(server.port(.blob))/\(DevelopmentAccount.name)/photos/ada.jpg"
            let ranged = try await send("GET", url, headers: ["Range": "bytes=0-1000"])
            #expect(ranged.status == 206)
            #expect(ranged.body == Array("ABC".utf8))
            #expect(ranged.header("Content-Length") == "3")
            #expect(ranged.header("Content-Range") == "bytes 0-2/3", "not bytes 0-1000/2464")
            let inside = try await send("GET", url, headers: ["x-ms-range": "bytes=1-1"])
            #expect(inside.body == Array("B".utf8))
            #expect(inside.header("Content-Range") == "bytes 1-1/2464", "a range the bytes hold is sent as asked")
            let past = try await send("GET", url, headers: ["Range": "bytes=100-200"])
            #expect(past.status == 416, "\(past.text)")
            #expect(past.errorCode == "InvalidRange")
            #expect(past.header("Content-Range") == "bytes */3")
            let whole = try await send("GET", url)
            #expect(whole.status == 200)
            #expect(whole.body == Array("ABC".utf8))
            #expect(whole.header("Content-Length") == "3")
        }
    }
}
