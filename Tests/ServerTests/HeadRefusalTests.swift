import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import Testing

/// Requests the connection answers before a service reads them (a chunked body, a head too large to
/// take, bytes that are no HTTP) get the service's error body, and the server stays up (issue 48
/// §4.5).
@Suite("serve: refusals of a head, with a body")
struct HeadRefusalTests {
    static func text(_ reply: [UInt8]) -> String { String(decoding: reply, as: UTF8.self) }

    /// A chunked body of `bytes`, in one chunk, and its end.
    static func chunked(_ bytes: [UInt8]) -> [UInt8] {
        Array(String(bytes.count, radix: 16).utf8) + Array("\r\n".utf8) + bytes + Array("\r\n0\r\n\r\n".utf8)
    }

    /// The body of a raw reply (after its head).
    static func body(_ reply: String) -> Substring {
        reply.range(of: "\r\n\r\n").map { reply[$0.upperBound...] } ?? ""
    }

    @Test("a chunked Put Blob or Put Block is 411 MissingContentLengthHeader with an error body")
    func chunkedBlobWrites() async throws {
        try await withRunningServer { server in
            let port = server.port(.blob)
            #expect(
                try await BlobBadRequestTests.request("PUT", port: port, path: "chunks", query: "restype=container")
                    .status == 201
            )
            for (what, path, query) in [
                ("Put Blob", "chunks/a.bin", ""), ("Put Block", "chunks/b.bin", "comp=block&blockid=AAAA"),
            ] {
                let head = try Self.signedHead("PUT", path: path, query: query)
                let reply = Self.text(
                    try await RawHTTP.exchange(port: port, head + Self.chunked(Array("bytes".utf8)), quietSeconds: 30)
                )
                #expect(reply.hasPrefix("HTTP/1.1 411 "), "\(what): \(reply.prefix(300))")
                #expect(reply.contains("x-ms-error-code: MissingContentLengthHeader"), "\(what): \(reply.prefix(500))")
                #expect(Self.body(reply).contains("<Code>MissingContentLengthHeader</Code>"), "\(what): \(reply)")
            }
            let stored = try await BlobBadRequestTests.request("GET", port: port, path: "chunks/a.bin")
            #expect(stored.status == 404, "nothing was stored; the server is up")
        }
    }

    /// The raw head of a chunked blob request (a block blob's), signed with the development key.
    static func signedHead(_ method: String, path: String, query: String) throws -> [UInt8] {
        let fullPath = "/\(DevelopmentAccount.name)/\(path)"
        var headers = [
            "x-ms-date": HTTPDate.format(EdmDateTime.now()), "x-ms-version": "2021-08-06",
            "x-ms-blob-type": "BlockBlob",
        ]
        let head = RequestHead(
            method: method,
            path: fullPath,
            query: query,
            headers: headers.map { (name: $0.key, value: $0.value) }
        )
        headers["Authorization"] = try SharedKey.authorization(for: head, service: .blob, credentials: .development)
        headers["Transfer-Encoding"] = "chunked"
        let lines = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        let target = query.isEmpty ? fullPath : fullPath + "?" + query
        return Array("\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(lines)\r\n".utf8)
    }

    @Test("a chunked table request within the limit is served, as with a Content-Length")
    func chunkedTableRequest() async throws {
        try await withRunningServer { server in
            let port = server.port(.table)
            let head = try HostileClientTests.signedHead(
                "POST",
                service: .table,
                path: "Tables",
                length: nil,
                headers: [
                    "Content-Type": "application/json", "Accept": "application/json;odata=nometadata",
                    "Connection": "close",
                ]
            )
            let reply = Self.text(
                try await RawHTTP.exchange(
                    port: port,
                    head + Self.chunked(Array(#"{"TableName":"chunked"}"#.utf8)),
                    quietSeconds: 30
                )
            )
            #expect(reply.hasPrefix("HTTP/1.1 201 "), "\(reply.prefix(500))")
        }
    }

    @Test("headers of 70 KB and of 100 KB are both 431 with the service's error body; the server stays up")
    func largeHeads() async throws {
        try await withRunningServer { server in
            for (service, code) in [(StorageService.blob, "<Code>"), (.table, "RequestHeaderFieldsTooLarge")] {
                let port = server.port(service)
                for size in [70_000, 100_000, 200_000] {
                    let request =
                        HostileClientTests.listing + "x-long: " + String(repeating: "y", count: size) + "\r\n\r\n"
                    let reply = Self.text(try await RawHTTP.exchange(port: port, Array(request.utf8), quietSeconds: 30))
                    #expect(reply.hasPrefix("HTTP/1.1 431 "), "\(service) \(size): \(reply.prefix(300))")
                    #expect(Self.body(reply).contains(code), "\(service) \(size): \(reply.prefix(600))")
                    #expect(Self.body(reply).contains("RequestHeaderFieldsTooLarge"), "\(service) \(size)")
                }
                let garbage = Self.text(
                    try await RawHTTP.exchange(port: port, Array("NOT HTTP AT ALL\r\n\r\n".utf8), quietSeconds: 30)
                )
                #expect(garbage.hasPrefix("HTTP/1.1 400 "), "\(service): \(garbage.prefix(300))")
                #expect(Self.body(garbage).contains("InvalidInput"), "\(service): \(garbage)")
            }
            let listing = try await send(
                "GET",
                "http://127.0.0.1:\(server.port(.blob))/\(DevelopmentAccount.name)?comp=list"
            )
            #expect(listing.status == 404 || listing.status == 403, "the server is still up: \(listing.status)")
        }
    }
}
