import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import Testing

/// Clients that hold connections, send bodies they may not send, send them endlessly or slowly, or
/// send heads no server should take: each is answered (or cut off) at once, over real loopback HTTP,
/// without the server reading what it would refuse. Time bounds are loose (the whole suite on 2 cores
/// has kept a task waiting half a minute for a thread): a reply to a head whose body is never sent can
/// only come from the head, and the waits the server would otherwise make are minutes long.
@Suite("serve: hostile clients")
struct HostileClientTests {
    static let listing = "GET /\(DevelopmentAccount.name)?comp=list HTTP/1.1\r\nHost: 127.0.0.1\r\n"

    /// The head of a request signed with the development key, as raw bytes; `length` nil sends it chunked.
    static func signedHead(
        _ method: String,
        service: StorageService,
        path: String,
        length: Int?,
        headers extra: [String: String] = [:]
    ) throws -> [UInt8] {
        let fullPath = "/\(DevelopmentAccount.name)/\(path)"
        var headers = ["x-ms-date": HTTPDate.format(EdmDateTime.now()), "x-ms-version": "2021-08-06"].merging(extra) {
            $1
        }
        if let length { headers["Content-Length"] = "\(length)" }
        let head = RequestHead(
            method: method,
            path: fullPath,
            query: "",
            headers: headers.map { (name: $0.key, value: $0.value) }
        )
        headers["Authorization"] = try SharedKey.authorization(for: head, service: service, credentials: .development)
        if length == nil { headers["Transfer-Encoding"] = "chunked" }
        let lines = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        return Array("\(method) \(fullPath) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(lines)\r\n".utf8)
    }

    static func text(_ reply: [UInt8]) -> String { String(decoding: reply, as: UTF8.self) }

    @Test("at the bound on open connections, a new client closes the one idle the longest, not a newer one")
    func evictsLongestIdle() async throws {
        // Without eviction the new client would wait for an idle connection to time out: 5 minutes.
        try await withRunningServer(
            configure: {
                $0.maxConnections = 2
                $0.idleTimeoutSeconds = 300
            },
            { server in
                let port = server.port(.blob)
                // Two keep-alive connections, each idle after a reply; the first has been idle longer.
                let oldest = try await RawHTTP.Connection.open(port: port, quietSeconds: 90)
                try await oldest.send(Array((Self.listing + "\r\n").utf8))
                #expect(RawHTTP.statuses(await oldest.receiveSome()) == [404])
                try await Task.sleep(for: .milliseconds(200))
                let newer = try await RawHTTP.Connection.open(port: port, quietSeconds: 90)
                try await newer.send(Array((Self.listing + "\r\n").utf8))
                #expect(RawHTTP.statuses(await newer.receiveSome()) == [404])

                let started = ContinuousClock.now
                let reply = try await RawHTTP.exchange(
                    port: port,
                    Array((Self.listing + "Connection: close\r\n\r\n").utf8),
                    quietSeconds: 90
                )
                #expect(RawHTTP.statuses(reply) == [404])
                #expect(ContinuousClock.now - started < .seconds(60), "answered at once, not after the idle timeout")
                #expect(await oldest.receiveAll().isEmpty, "the longest idle connection was closed")
                // The newer one still works.
                try await newer.send(Array((Self.listing + "\r\n").utf8))
                #expect(RawHTTP.statuses(await newer.receiveSome()) == [404])
            }
        )
    }

    @Test("a body the credentials do not allow, or larger than the service takes, is refused from the head")
    func refusedFromTheHead() async throws {
        try await withRunningServer { server in
            let port = server.port(.blob)
            // Only heads are sent, declaring 100 MB: a reply can only come from the head.
            let forged =
                "PUT /\(DevelopmentAccount.name)/photos/a.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\nx-ms-date: \(HTTPDate.format(EdmDateTime.now()))\r\n"
                + "x-ms-version: 2021-08-06\r\nx-ms-blob-type: BlockBlob\r\nAuthorization: SharedKey \(DevelopmentAccount.name):AAAA\r\nContent-Length: 100000000\r\n\r\n"
            let refused = Self.text(try await RawHTTP.exchange(port: port, Array(forged.utf8), quietSeconds: 90))
            #expect(refused.hasPrefix("HTTP/1.1 403 "), "\(refused)")
            #expect(refused.contains("<Code>AuthenticationFailed</Code>"))
            #expect(refused.contains("Connection: close"))

            let tooLarge = Self.text(
                try await RawHTTP.exchange(
                    port: port,
                    try Self.signedHead(
                        "PUT",
                        service: .blob,
                        path: "photos/a.jpg",
                        length: 100_000_000,
                        headers: ["x-ms-blob-type": "BlockBlob"]
                    ),
                    quietSeconds: 90
                )
            )
            #expect(tooLarge.hasPrefix("HTTP/1.1 413 "), "\(tooLarge)")
            #expect(tooLarge.contains("<Code>RequestBodyTooLarge</Code>"))

            // Without credentials, a table request is refused before its body too.
            let anonymous =
                "POST /\(DevelopmentAccount.name)/Tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000000\r\n\r\n"
            let table = Self.text(
                try await RawHTTP.exchange(port: server.port(.table), Array(anonymous.utf8), quietSeconds: 90)
            )
            #expect(table.hasPrefix("HTTP/1.1 403 "), "\(table)")
        }
    }

    @Test("a body that cannot have its share of the server's body budget gets 503 ServerBusy from the head")
    func budget() async throws {
        try await withRunningServer(
            configure: { $0.maxBufferedBodyBytes = 1 << 20 },
            { server in
                let head = try Self.signedHead(
                    "PUT",
                    service: .blob,
                    path: "photos/a.jpg",
                    length: 2 << 20,
                    headers: ["x-ms-blob-type": "BlockBlob"]
                )
                let reply = Self.text(try await RawHTTP.exchange(port: server.port(.blob), head, quietSeconds: 90))
                #expect(reply.hasPrefix("HTTP/1.1 503 "), "\(reply)")
                #expect(reply.contains("<Code>ServerBusy</Code>"))
                #expect(reply.contains("Retry-After: 1"))
            }
        )
    }

    @Test("a chunked body is cut off with 413 once it passes the service's limit")
    func chunkedLimit() async throws {
        // A grace longer than any wait: in a full parallel run this process's sends once waited past
        // the default 10 s for a cooperative thread, and the body was cut off as too slow (500
        // OperationTimedOut) before it reached the limit this test is about.
        try await withRunningServer(
            configure: { $0.bodyGraceSeconds = 600 },
            { server in
                let connection = try await RawHTTP.Connection.open(port: server.port(.table), quietSeconds: 90)
                try await connection.send(
                    try Self.signedHead(
                        "POST",
                        service: .table,
                        path: "Tables",
                        length: nil,
                        headers: ["Content-Type": "application/json"]
                    )
                )
                // 1 MiB chunks, well past the Table service's 4 MiB; the server stops reading at the limit.
                let chunk =
                    Array("100000\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
                    + Array("\r\n".utf8)
                for _ in 0..<8 { try await connection.send(chunk) }
                let reply = Self.text(await connection.receiveAll())
                #expect(reply.hasPrefix("HTTP/1.1 413 "), "\(reply.prefix(300))")
                #expect(reply.contains("RequestBodyTooLarge"))
            }
        )
    }

    @Test("a body that comes too slowly is cut off once the grace has passed")
    func slowBody() async throws {
        // Without the bound the trickle would run its 2 minutes, then the idle timeout its 5.
        try await withRunningServer(
            configure: {
                $0.bodyGraceSeconds = 1
                $0.minBodyBytesPerSecond = 1000
                $0.idleTimeoutSeconds = 300
            },
            { server in
                let connection = try await RawHTTP.Connection.open(port: server.port(.blob), quietSeconds: 150)
                try await connection.send(
                    try Self.signedHead(
                        "PUT",
                        service: .blob,
                        path: "photos/slow.jpg",
                        length: 1000,
                        headers: ["x-ms-blob-type": "BlockBlob"]
                    )
                )
                let started = ContinuousClock.now
                // A byte every half second: far below 1,000 a second.
                let trickle = Task {
                    for _ in 0..<240 {
                        try await connection.send([UInt8(ascii: "x")])
                        try await Task.sleep(for: .milliseconds(500))
                    }
                }
                let reply = Self.text(await connection.receiveAll())
                trickle.cancel()
                #expect(reply.hasPrefix("HTTP/1.1 500 "), "\(reply)")
                #expect(reply.contains("<Code>OperationTimedOut</Code>"))
                #expect(
                    ContinuousClock.now - started < .seconds(60),
                    "cut off soon after the 1 s grace, not after the 2-minute trickle"
                )
            }
        )
    }

    @Test("a head with too many headers gets 431; an HTTP/1.1 request without Host gets 400, an HTTP/1.0 one is served")
    func heads() async throws {
        try await withRunningServer { server in
            let port = server.port(.blob)
            let many = (0..<5000).map { "x-filler-\($0): y\r\n" }.joined()
            let crowded = Self.text(
                try await RawHTTP.exchange(port: port, Array((Self.listing + many + "\r\n").utf8), quietSeconds: 90)
            )
            #expect(crowded.hasPrefix("HTTP/1.1 431 "), "\(crowded.prefix(200))")

            let long = "x-long: " + String(repeating: "y", count: 100_000) + "\r\n"
            let large = Self.text(
                try await RawHTTP.exchange(port: port, Array((Self.listing + long + "\r\n").utf8), quietSeconds: 90)
            )
            #expect(large.hasPrefix("HTTP/1.1 431 ") || large.hasPrefix("HTTP/1.1 400 "), "\(large.prefix(200))")

            let hostless = Self.text(
                try await RawHTTP.exchange(
                    port: port,
                    Array("GET /\(DevelopmentAccount.name)?comp=list HTTP/1.1\r\n\r\n".utf8),
                    quietSeconds: 90
                )
            )
            #expect(hostless.hasPrefix("HTTP/1.1 400 "), "\(hostless)")

            let old = Self.text(
                try await RawHTTP.exchange(
                    port: port,
                    Array("GET /\(DevelopmentAccount.name)?comp=list HTTP/1.0\r\n\r\n".utf8),
                    quietSeconds: 90
                )
            )
            #expect(old.hasPrefix("HTTP/1.0 404 "), "\(old.prefix(200))")
        }
    }
}
