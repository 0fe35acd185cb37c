import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// Bad requests to the Table service get Azure's status, code and body, and the server stays up.
@Suite("serve: bad Table requests")
struct TableBadRequestTests {
    /// A Table request signed with the development key, as a client would send it.
    static func signed(
        _ method: String,
        port: Int,
        path: String,
        body: [UInt8],
        contentType: String
    ) throws -> (String, [String: String]) {
        let fullPath = "/\(DevelopmentAccount.name)/\(path)"
        var headers = [
            "x-ms-date": HTTPDate.format(EdmDateTime.now()), "x-ms-version": "2019-02-02", "Content-Type": contentType,
            "Accept": "application/json;odata=minimalmetadata", "DataServiceVersion": "3.0",
        ]
        let head = RequestHead(method: method, path: fullPath, headers: headers.map { (name: $0.key, value: $0.value) })
        headers["Authorization"] = try SharedKey.authorization(for: head, service: .table, credentials: .development)
        return ("http://127.0.0.1:\(port)\(fullPath)", headers)
    }

    /// The `code` of a JSON `odata.error` body.
    static func code(_ reply: HTTPReply) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any]
        return (object?["odata.error"] as? [String: Any])?["code"] as? String
    }

    @Test("malformed bodies, wrong types, invalid UTF-8, huge values and bodies, cut-short batches")
    func badBodies() async throws {
        try await withRunningServer { server in
            let port = server.port(.table)
            let (create, createHeaders) = try Self.signed(
                "POST",
                port: port,
                path: "Tables",
                body: [],
                contentType: "application/json"
            )
            #expect(
                try await send("POST", create, headers: createHeaders, body: Array(#"{"TableName":"bad"}"#.utf8)).status
                    == 201
            )
            let cases: [(String, String, [UInt8], String, Int, String)] = [
                ("not JSON", "bad", Array("{not json".utf8), "application/json", 400, "InvalidInput"),
                ("no keys", "bad", Array(#"{"Name":"x"}"#.utf8), "application/json", 400, "PropertiesNeedValue"),
                (
                    "a key of the wrong type", "bad", Array(#"{"PartitionKey":1,"RowKey":"r"}"#.utf8),
                    "application/json", 400, "InvalidValueType"
                ),
                (
                    "invalid UTF-8", "bad",
                    Array(#"{"PartitionKey":"p","RowKey":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8),
                    "application/json", 400, "InvalidInput"
                ),
                (
                    "a 70 KB string", "bad",
                    Array(#"{"PartitionKey":"p","RowKey":"r","Bio":""#.utf8)
                        + Array(repeating: UInt8(ascii: "a"), count: 70_000) + Array(#""}"#.utf8),
                    "application/json", 400, "PropertyValueTooLarge"
                ),
                (
                    "253 properties", "bad",
                    Array(
                        ("{\"PartitionKey\":\"p\",\"RowKey\":\"r\"" + (0..<253).map { ",\"P\($0)\":1" }.joined() + "}")
                            .utf8
                    ),
                    "application/json", 400, "TooManyProperties"
                ),
                (
                    "an entity over 1 MiB", "bad",
                    Array(
                        ("{\"PartitionKey\":\"p\",\"RowKey\":\"r\""
                            + (0..<20).map { ",\"S\($0)\":\"" + String(repeating: "é", count: 30_000) + "\"" }.joined()
                            + "}").utf8
                    ),
                    "application/json", 400, "EntityTooLarge"
                ),
                (
                    "a / in a key", "bad", Array(#"{"PartitionKey":"a/b","RowKey":"r"}"#.utf8), "application/json", 400,
                    "OutOfRangeInput"
                ),
                (
                    "a 5 MiB body", "bad", Array(repeating: UInt8(ascii: " "), count: 5 << 20), "application/json", 413,
                    "RequestBodyTooLarge"
                ),
                (
                    "a batch cut short", "$batch",
                    Array(
                        "--batch_1\r\nContent-Type: multipart/mixed; boundary=changeset_1\r\n\r\n--changeset_1\r\nContent-Type: app"
                            .utf8
                    ),
                    "multipart/mixed; boundary=batch_1", 400, "InvalidInput"
                ),
                (
                    "a missing table", "nowhere", Array(#"{"PartitionKey":"p","RowKey":"r"}"#.utf8), "application/json",
                    404, "TableNotFound"
                ),
            ]
            for (what, path, body, contentType, status, code) in cases {
                let (url, headers) = try Self.signed(
                    "POST",
                    port: port,
                    path: path,
                    body: body,
                    contentType: contentType
                )
                let reply = try await send("POST", url, headers: headers, body: body)
                #expect(reply.status == status, "\(what): \(reply.status) \(reply.text.prefix(300))")
                #expect(Self.code(reply) == code, "\(what): \(reply.text.prefix(300))")
            }
            // Table Shared Key does not sign x-ms-version: the same request, from before JSON existed.
            let entity = Array(#"{"PartitionKey":"p","RowKey":"r"}"#.utf8)
            let (old, signedHeaders) = try Self.signed(
                "POST",
                port: port,
                path: "bad",
                body: entity,
                contentType: "application/json"
            )
            var oldHeaders = signedHeaders
            oldHeaders["x-ms-version"] = "2012-02-12"
            let tooEarly = try await send("POST", old, headers: oldHeaders, body: entity)
            #expect(tooEarly.status == 415)
            #expect(tooEarly.text.contains("<code>JsonFormatNotSupported</code>"), "an error in XML: \(tooEarly.text)")
            let anonymous = try await send("GET", "http://127.0.0.1:\(port)/\(DevelopmentAccount.name)/Tables")
            #expect(anonymous.status == 403)
            #expect(Self.code(anonymous) == "AuthenticationFailed")
            let (list, listHeaders) = try Self.signed("GET", port: port, path: "Tables", body: [], contentType: "")
            #expect(try await send("GET", list, headers: listHeaders).status == 200, "the server is still up")
        }
    }
}
