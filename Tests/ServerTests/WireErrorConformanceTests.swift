import Foundation
import SpeakEasyData
import TestServer
import Testing

@testable import SpeakEasyServer

/// The server's map (an error a request meets → the service's ``WireError`` → reply bytes) and the
/// client's (reply → ``StorageError``, ``StorageHTTPClient/storageError(status:errorCodeHeader:body:service:account:)``)
/// held against each other: what `serve` answers, the Azure client reads back as the same reason,
/// code and message.
@Suite("Wire errors: the server's map and the client's agree")
struct WireErrorConformanceTests {
    /// The reason the client reads back for each reason serve answers with: the same one, except
    /// where two reasons share a status and nothing else tells them apart on the wire.
    static let readBack: [StorageError.Reason: StorageError.Reason?] = [
        .notFound: .notFound, .alreadyExists: .alreadyExists, .preconditionFailed: .preconditionFailed,
        .invalidRange: .invalidRange,
        .invalidInput: .invalidInput, .unsupportedByService: .unsupportedByService, .busy: .busy,
        .unavailable: .unavailable,
        .refused: .refused,
        // 304 is an answer a conditional read asks for, not an error: the caller looks at the status.
        .notModified: nil,
        // 403, as Azure's refusal of a request's credentials is: a store open for reading only.
        .unauthorized: .refused,
        // 500 InternalError, as for a store that failed part-way.
        .corrupt: .unavailable,
        // 503 ServerBusy; serve never sends it (that nothing answered is the client's own finding).
        .unreachable: .busy,
    ]

    /// Tries that only a dropped connection uses: none of the replies these tests ask for is a status
    /// ``RetryPolicy`` sends again.
    static let fastRetry = RetryPolicy(attempts: 3, baseDelay: .milliseconds(10))

    /// Heads of requests that ask for each body format: the Blob service's one, the Table service's
    /// JSON at each level and Atom.
    static let heads: [(StorageService, RequestHead)] =
        [(.blob, RequestHead(method: "GET", path: "/devstoreaccount1/photos/ada.jpg", query: "", headers: []))]
        + [
            "application/json;odata=nometadata", "application/json;odata=minimalmetadata",
            "application/json;odata=fullmetadata", "application/atom+xml",
        ]
        .map {
            (
                .table,
                RequestHead(
                    method: "GET",
                    path: "/devstoreaccount1/speakers()",
                    query: "",
                    headers: [(name: "Accept", value: $0)]
                )
            )
        }

    /// What the client reads from the reply `error` renders for `head`.
    static func readBack(_ error: any WireError, _ service: StorageService, _ head: RequestHead) throws -> StorageError
    {
        let reply = error.reply(to: head, requestID: "0f4a2c1e-0000-4000-8000-000000000000", time: EdmDateTime.now())
        return try #require(
            StorageHTTPClient.storageError(
                status: reply.status,
                errorCodeHeader: reply.header("x-ms-error-code"),
                body: reply.body,
                service: service,
                account: "acct"
            )
        )
    }

    /// The server's map of `service`, as the services apply it.
    static func serverMap(_ error: any Error, _ service: StorageService) throws -> any WireError {
        try #require(service.wireError(error) as? any WireError, "\(error) is mapped")
    }

    @Test("every reason, with no code and with the codes the stores give, comes back as its reason, code and message")
    func reasons() throws {
        #expect(Set(Self.readBack.keys) == Set(StorageError.Reason.allCases))
        let codes: [String?] = [
            nil, "TableNotFound", "ResourceNotFound", "EntityAlreadyExists", "UpdateConditionNotSatisfied",
            "ContainerNotFound", "BlobNotFound",
            "BlobAlreadyExists", "InvalidBlockList", "ConditionNotMet", "InvalidRange", "InvalidDuplicateRow",
            "CommandsInBatchActOnDifferentPartitions",
        ]
        for (service, head) in Self.heads {
            for reason in StorageError.Reason.allCases {
                for code in codes {
                    let error = StorageError(
                        reason,
                        account: "local",
                        "Something about 'ada.jpg' & <speakers>.",
                        code: code
                    )
                    let wire = try Self.serverMap(error, service)
                    #expect(wire.status == reason.httpStatus)
                    guard let expected = Self.readBack[reason]! else {
                        #expect(
                            StorageHTTPClient.storageError(
                                status: wire.status,
                                errorCodeHeader: nil,
                                body: [],
                                service: service,
                                account: "acct"
                            ) == nil
                        )
                        continue
                    }
                    let back = try Self.readBack(wire, service, head)
                    #expect(back.reason == expected, "\(service) \(reason) \(code ?? "-")")
                    #expect(back.code == error.azureCode, "\(service) \(reason) \(code ?? "-")")
                    #expect(back.message == error.message, "\(service) \(reason)")
                    #expect(back.operationIndex == nil)
                }
            }
        }
    }

    /// The reason the client reads for each status serve answers with.
    static func reason(status: Int) -> StorageError.Reason {
        switch status {
        case 400, 405, 413, 415: .invalidInput
        case 403: .refused
        case 404: .notFound
        case 409: .alreadyExists
        case 416: .invalidRange
        case 500: .unavailable
        case 501: .unsupportedByService
        case 503: .busy
        default: .unavailable
        }
    }

    @Test(
        "the refusals of the wire alone (413, 415, 405, authorization, filters, faults) come back with their code and message"
    )
    func wireOnly() throws {
        let authorizations = AuthorizationError.Code.allCases.flatMap {
            [AuthorizationError($0), AuthorizationError($0, detail: "Signature did not match.")]
        }
        let shared: [any Error] =
            authorizations + [BodyTooLarge(), ResourcePath.invalid("/x/../y", "it holds a . or .. segment")]
        let filters = [
            FilterSyntaxError(at: 3, "Unrecognized 'Edm.Int32' literal '2147483648'"),
            FilterSyntaxError(.unsupportedOperation, at: 0, "functions are not supported"),
        ]
        let table: [TableServiceError] = [
            .invalidInput(), .outOfRange(), .propertiesNeedValue, .invalidValueType("Edm.Int32"),
            .duplicateProperties("Name"), .tooManyProperties,
            .entityTooLarge, .propertyValueTooLarge("Name"), .propertyNameInvalid("odata.x"),
            .propertyNameTooLong(String(repeating: "n", count: 300)),
            .requestBodyTooLarge, .jsonFormatNotSupported, .missingRequiredHeader("If-Match"), .notImplemented("No."),
            .serverBusy("Busy."), .internalError("Broken."), .accountNotFound,
        ]
        let blob: [BlobServiceError] = [
            .invalidHeaderValue("If-Match", "x"), .missingRequiredHeader("x-ms-blob-type"),
            .invalidQueryParameterValue("blockid"),
            .unknownComp("nonsense"), .outOfRangeQueryParameterValue("maxresults=0"), .invalidMD5, .md5Mismatch,
            .invalidXMLDocument("Not XML."),
            .invalidContainerName("Bad--Name"), .containerNotFound, .blobNotFound, .resourceNotFound,
            .unsupportedHTTPVerb, .containerAlreadyExists,
            .requestBodyTooLarge,
            .rangeNotSatisfiable(
                StorageError(.invalidRange, account: "a", "The range specified is invalid.", code: "InvalidRange"),
                size: 768
            ),
            .notImplemented("No."), .serverBusy("Busy."), .internalError("Broken."), .accountNotFound,
        ]
        for (service, head) in Self.heads {
            for error in shared
                + (service == .table
                    ? filters.map { $0 as any Error } + table.map { $0 as any Error } : blob.map { $0 as any Error })
            {
                let wire = try Self.serverMap(error, service)
                let back = try Self.readBack(wire, service, head)
                #expect(back.reason == Self.reason(status: wire.status), "\(service) \(wire)")
                #expect(back.code == wire.code, "\(service) \(wire)")
                #expect(back.message == wire.message, "\(service) \(wire)")
            }
        }
    }

    @Test("a failed batch operation's error comes back with its index")
    func batchOperation() throws {
        let error = TableServiceError(
            StorageError(
                .alreadyExists,
                account: "local",
                "The specified entity already exists.",
                code: "EntityAlreadyExists"
            ),
            operationIndex: 3
        )
        for (_, head) in Self.heads.filter({ $0.0 == .table }) {
            let back = try Self.readBack(error, .table, head)
            #expect(back.reason == .alreadyExists && back.code == "EntityAlreadyExists" && back.operationIndex == 3)
        }
    }

    @Test("over HTTP: serve's refusals read back through the client as their reason and code")
    func overHTTP() async throws {
        try await withRunningServer { server in
            let connection = try AzureConnection(ConnectionString(server.connectionString()))
            // The default policy: no reply below is one it tries again, but a pooled connection that
            // an earlier server on the same port closed can be leased before the close is seen, and
            // then only a second try gets the reply (a real client retries it too).
            let client = StorageHTTPClient(connection: connection, retry: Self.fastRetry)
            let json = [("Accept", "application/json;odata=minimalmetadata"), ("Content-Type", "application/json")]
            let atom = [("Accept", "application/atom+xml"), ("Content-Type", "application/json")]
            let blob = [("x-ms-blob-type", "BlockBlob")]
            let cases: [(String, StorageRequest, StorageError.Reason, String)] = [
                (
                    "a table",
                    StorageRequest(
                        .table,
                        "POST",
                        "/Tables",
                        headers: json,
                        body: Array(#"{"TableName":"speakers"}"#.utf8)
                    ), .alreadyExists, "TableAlreadyExists"
                ),
                (
                    "a table, in Atom",
                    StorageRequest(
                        .table,
                        "POST",
                        "/Tables",
                        headers: atom,
                        body: Array(#"{"TableName":"speakers"}"#.utf8)
                    ), .alreadyExists, "TableAlreadyExists"
                ),
                (
                    "a missing table", StorageRequest(.table, "GET", "/nosuch()", headers: json), .notFound,
                    "TableNotFound"
                ),
                (
                    "a missing entity",
                    StorageRequest(.table, "GET", "/speakers(PartitionKey='p',RowKey='none')", headers: json),
                    .notFound, "ResourceNotFound"
                ),
                (
                    "an entity twice",
                    StorageRequest(
                        .table,
                        "POST",
                        "/speakers",
                        headers: json,
                        body: Array(#"{"PartitionKey":"p","RowKey":"r"}"#.utf8)
                    ), .alreadyExists, "EntityAlreadyExists"
                ),
                (
                    "a bad filter",
                    StorageRequest(.table, "GET", "/speakers()", query: [("$filter", "Age gt")], headers: json),
                    .invalidInput, "InvalidInput"
                ),
                (
                    "a filter function",
                    StorageRequest(
                        .table,
                        "GET",
                        "/speakers()",
                        query: [("$filter", "startswith(Name,'a')")],
                        headers: json
                    ), .unsupportedByService, "NotImplemented"
                ),
                (
                    "JSON before JSON",
                    StorageRequest(
                        .table,
                        "GET",
                        "/Tables",
                        headers: [("Accept", "application/json"), ("x-ms-version", "2012-02-12")]
                    ), .invalidInput, "JsonFormatNotSupported"
                ),
                (
                    "a container", StorageRequest(.blob, "PUT", "/photos", query: [("restype", "container")]),
                    .alreadyExists, "ContainerAlreadyExists"
                ),
                ("a missing blob", StorageRequest(.blob, "GET", "/photos/none.jpg"), .notFound, "BlobNotFound"),
                (
                    "a missing container", StorageRequest(.blob, "GET", "/nosuch/none.jpg"), .notFound,
                    "ContainerNotFound"
                ),
                (
                    "a range past the end",
                    StorageRequest(.blob, "GET", "/photos/ada.jpg", headers: [("x-ms-range", "bytes=5000-5010")]),
                    .invalidRange, "InvalidRange"
                ),
                (
                    "a verb no operation uses", StorageRequest(.blob, "PATCH", "/photos/ada.jpg"), .invalidInput,
                    "UnsupportedHttpVerb"
                ),
                (
                    "an operation serve leaves out",
                    StorageRequest(.blob, "PUT", "/photos/ada.jpg", query: [("comp", "lease")]), .unsupportedByService,
                    "NotImplemented"
                ),
                (
                    "a comp Azure does not have",
                    StorageRequest(.blob, "GET", "/photos/ada.jpg", query: [("comp", "nonsense")]), .invalidInput,
                    "InvalidQueryParameterValue"
                ),
                (
                    "a wrong MD5",
                    StorageRequest(
                        .blob,
                        "PUT",
                        "/photos/x.jpg",
                        headers: blob + [("Content-MD5", "hQ7qIQogQ+FI+RDY/b6J8A==")],
                        body: [1]
                    ), .invalidInput, "Md5Mismatch"
                ),
            ]
            for setUp in [
                StorageRequest(
                    .table,
                    "POST",
                    "/Tables",
                    headers: json,
                    body: Array(#"{"TableName":"speakers"}"#.utf8)
                ),
                StorageRequest(
                    .table,
                    "POST",
                    "/speakers",
                    headers: json,
                    body: Array(#"{"PartitionKey":"p","RowKey":"r"}"#.utf8)
                ),
                StorageRequest(.blob, "PUT", "/photos", query: [("restype", "container")]),
                StorageRequest(.blob, "PUT", "/photos/ada.jpg", headers: blob, body: Array(repeating: 7, count: 768)),
            ] {
                #expect((200..<300).contains(try await client.send(setUp).status))
            }
            for (what, request, reason, code) in cases {
                let response = try await client.send(request)
                let error = try #require(
                    StorageHTTPClient.storageError(
                        status: response.status,
                        errorCodeHeader: response.header("x-ms-error-code"),
                        body: response.body,
                        service: request.service,
                        account: "acct"
                    ),
                    "\(what): \(response.status)"
                )
                #expect(
                    error.reason == reason && error.code == code,
                    "\(what): \(error.reason) \(error.code ?? "-") \(error.message)"
                )
                if code == "InvalidRange" { #expect(response.header("Content-Range") == "bytes */768") }
            }
            // A body over the limit is refused from its head, before it is sent (HostileClientTests).
            // AsyncHTTPClient, under StorageHTTPClient, closes its connection on such an early reply
            // before it hands the reply over, while its body is still being written, and fails with
            // "I/O on closed channel"; so these heads go as bytes, and their replies are read back here.
            for (service, path, headers) in [
                (StorageService.table, "$batch", ["Content-Type": "multipart/mixed; boundary=batch_1"]),
                (.blob, "photos/x.jpg", ["x-ms-blob-type": "BlockBlob"]),
            ] {
                let limit = service == .table ? 4 << 20 : 64 << 20
                let head = try HostileClientTests.signedHead(
                    service == .table ? "POST" : "PUT",
                    service: service,
                    path: path,
                    length: limit + 1,
                    headers: headers
                )
                let reply = try await RawHTTP.exchange(port: server.port(service), head, quietSeconds: 30)
                let text = String(decoding: reply, as: UTF8.self)
                let parts = text.components(separatedBy: "\r\n\r\n")
                let code = parts[0].split(separator: "\r\n").first { $0.lowercased().hasPrefix("x-ms-error-code: ") }
                    .map { String($0.dropFirst(17)) }
                let error = try #require(
                    StorageHTTPClient.storageError(
                        status: RawHTTP.statuses(reply).first ?? 0,
                        errorCodeHeader: code,
                        body: Array(parts.dropFirst().joined(separator: "\r\n\r\n").utf8),
                        service: service,
                        account: "acct"
                    ),
                    "\(service): \(text)"
                )
                #expect(error.reason == .invalidInput && error.code == "RequestBodyTooLarge", "\(service): \(error)")
            }
            let wrongKey = try AzureConnection(
                ConnectionString(server.connectionString(key: "AAAA" + DevelopmentAccount.key.dropFirst(4)))
            )
            let refused = try await StorageHTTPClient(connection: wrongKey, retry: Self.fastRetry).send(
                StorageRequest(.table, "GET", "/Tables", headers: json)
            )
            let error = try #require(
                StorageHTTPClient.storageError(
                    status: refused.status,
                    errorCodeHeader: nil,
                    body: refused.body,
                    service: .table,
                    account: "acct"
                )
            )
            #expect(error.reason == .refused && error.code == "AuthenticationFailed", "\(error)")
        }
    }
}
