import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// Bad requests to the Blob service get Azure's status, code and XML body, and the server stays up.
@Suite("serve: bad Blob requests")
struct BlobBadRequestTests {
    /// A Blob request signed with the development key, as a client would send it.
    static func signed(
        _ method: String,
        port: Int,
        path: String,
        query: String = "",
        headers extra: [String: String] = [:],
        body: [UInt8] = []
    )
        throws -> (String, [String: String])
    {
        let fullPath = "/\(DevelopmentAccount.name)/\(path)"
        var headers = ["x-ms-date": HTTPDate.format(EdmDateTime.now()), "x-ms-version": "2021-08-06"].merging(extra) {
            $1
        }
        if !body.isEmpty { headers["Content-Length"] = "\(body.count)" }
        let head = RequestHead(
            method: method,
            path: fullPath,
            query: query,
            headers: headers.map { (name: $0.key, value: $0.value) }
        )
        headers["Authorization"] = try SharedKey.authorization(for: head, service: .blob, credentials: .development)
        return ("http://127.0.0.1:\(port)\(fullPath)" + (query.isEmpty ? "" : "?" + query), headers)
    }

    static func request(
        _ method: String,
        port: Int,
        path: String,
        query: String = "",
        headers: [String: String] = [:],
        body: [UInt8] = []
    ) async throws -> HTTPReply {
        let (url, signedHeaders) = try signed(
            method,
            port: port,
            path: path,
            query: query,
            headers: headers,
            body: body
        )
        return try await send(method, url, headers: signedHeaders, body: body.isEmpty ? nil : body)
    }

    @Test("malformed XML, unknown blocks, a wrong MD5, a 100 MB body, unknown operations and verbs, a missing header")
    func badRequests() async throws {
        try await withRunningServer { server in
            let port = server.port(.blob)
            #expect(try await Self.request("PUT", port: port, path: "photos", query: "restype=container").status == 201)
            let blob = ["x-ms-blob-type": "BlockBlob", "Content-Type": "image/jpeg"]
            let photo = Array("a photo".utf8)
            let cases: [(String, String, String, [String: String], [UInt8], Int, String)] = [
                (
                    "a block list that is not XML", "PUT", "comp=blocklist", [:], Array("<BlockList><Latest>".utf8),
                    400, "InvalidXmlDocument"
                ),
                (
                    "a block list of another root", "PUT", "comp=blocklist", [:], Array("<Blocks/>".utf8), 400,
                    "InvalidXmlDocument"
                ),
                (
                    "a block list naming a block never put", "PUT", "comp=blocklist", [:],
                    Array("<BlockList><Latest>AAAA</Latest></BlockList>".utf8), 400, "InvalidBlockList"
                ),
                (
                    "a Content-MD5 of other bytes", "PUT", "",
                    blob.merging(["Content-MD5": "hQ7qIQogQ+FI+RDY/b6J8A=="]) { $1 }, photo, 400, "Md5Mismatch"
                ),
                (
                    "a Content-MD5 that is not base64", "PUT", "", blob.merging(["Content-MD5": "not md5"]) { $1 },
                    photo, 400, "InvalidMd5"
                ),
                (
                    "a Put Blob without x-ms-blob-type", "PUT", "", ["Content-Type": "image/jpeg"], photo, 400,
                    "MissingRequiredHeader"
                ),
                (
                    "a 100 MB body", "PUT", "", blob, Array(repeating: 0x5A, count: 100 << 20), 413,
                    "RequestBodyTooLarge"
                ),
                ("a comp Azure does not have", "GET", "comp=nonsense", [:], [], 400, "InvalidQueryParameterValue"),
                (
                    "an operation Azure has and serve leaves out", "PUT", "comp=lease",
                    ["x-ms-lease-action": "acquire"], [], 501, "NotImplemented"
                ),
                ("a verb no operation uses", "PATCH", "", [:], [], 405, "UnsupportedHttpVerb"),
            ]
            for (what, method, query, headers, body, status, code) in cases {
                let reply = try await Self.request(
                    method,
                    port: port,
                    path: "photos/ada.jpg",
                    query: query,
                    headers: headers,
                    body: body
                )
                #expect(reply.status == status, "\(what): \(reply.status) \(reply.text.prefix(300))")
                #expect(reply.errorCode == code, "\(what): \(reply.text.prefix(300))")
                #expect(reply.header("x-ms-error-code") == code, "\(what)")
                #expect(reply.header("x-ms-request-id") != nil, "\(what)")
            }
            let put = try await Self.request("PUT", port: port, path: "photos/ada.jpg", headers: blob, body: photo)
            #expect(put.status == 201, "the server is still up: \(put.text)")
            let stored = try await send(
                "GET",
                "http://127.0.0.1:\(port)/\(DevelopmentAccount.name)/photos/ada.jpg",
                headers: try Self.signed("GET", port: port, path: "photos/ada.jpg").1
            )
            #expect(stored.body == photo, "no failed request left anything behind")
        }
    }

    @Test(
        "bytes no client sends: a body longer than its Content-Length, a path with .., a broken request line; the server stays up"
    )
    func rawBytes() async throws {
        try await withRunningServer { server in
            let port = server.port(.blob)
            #expect(try await Self.request("PUT", port: port, path: "photos", query: "restype=container").status == 201)
            let (_, headers) = try Self.signed(
                "PUT",
                port: port,
                path: "photos/ada.jpg",
                headers: ["x-ms-blob-type": "BlockBlob"],
                body: Array("12345".utf8)
            )
            var request = "PUT /\(DevelopmentAccount.name)/photos/ada.jpg HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            for (name, value) in headers { request += "\(name): \(value)\r\n" }
            // Five bytes declared, twenty sent: the first five are the blob, the rest is no request.
            // Each exchange ends when the server closes the connection; the long quiet only bounds a
            // run on a starved machine (10 s once passed with no reply under AddressSanitizer).
            let longer = try await RawHTTP.exchange(
                port: port,
                Array((request + "\r\n" + "12345GARBAGE-NOT-HTTP").utf8),
                quietSeconds: 60
            )
            #expect(RawHTTP.statuses(longer) == [201, 400], "\(String(decoding: longer, as: UTF8.self))")

            let dotted = try await RawHTTP.exchange(
                port: port,
                Array(
                    "GET /\(DevelopmentAccount.name)/photos/../secret HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                        .utf8
                ),
                quietSeconds: 60
            )
            #expect(RawHTTP.statuses(dotted) == [400])
            #expect(String(decoding: dotted, as: UTF8.self).contains("<Code>InvalidUri</Code>"))

            let broken = try await RawHTTP.exchange(
                port: port,
                Array("NOT AN HTTP REQUEST\r\n\r\n".utf8),
                quietSeconds: 60
            )
            #expect(RawHTTP.statuses(broken) == [400])

            let stored = try await send(
                "GET",
                "http://127.0.0.1:\(port)/\(DevelopmentAccount.name)/photos/ada.jpg",
                headers: try Self.signed("GET", port: port, path: "photos/ada.jpg").1
            )
            #expect(stored.status == 200, "the server is still up")
            #expect(stored.body == Array("12345".utf8), "the declared length is what was stored")
        }
    }
}
