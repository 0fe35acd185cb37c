import SpeakEasyAzure
import SpeakEasyData
import SpeakEasyProtocol
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// The client's transport against `serve` over real HTTP on loopback: signing, retries, time-outs,
/// and errors that never show a secret.
@Suite("Azure client: requests, signing and retries")
struct StorageHTTPClientTests {
    /// The development account at a running server's ports.
    static func connection(
        _ server: RunningServer,
        key: String = DevelopmentAccount.key,
        sas: String? = nil
    ) throws -> AzureConnection {
        try AzureConnection(ConnectionString(server.connectionString(key: key, sas: sas)))
    }

    /// Retries without the waits, so that the tests do not sleep through Retry-After.
    static let quick = RetryPolicy(attempts: 4, baseDelay: .milliseconds(1), maximumDelay: .milliseconds(20))

    static func createTable(_ name: String) -> StorageRequest {
        StorageRequest(
            .table,
            "POST",
            "/Tables",
            headers: [
                ("Content-Type", "application/json"), ("Accept", "application/json;odata=nometadata"),
                ("Prefer", "return-no-content"),
            ],
            body: Array("{\"TableName\":\"\(name)\"}".utf8)
        )
    }

    @Test("Shared Key requests to both services are accepted: a table and a container are made and listed")
    func sharedKey() async throws {
        try await withRunningServer { server in
            let client = StorageHTTPClient(connection: try Self.connection(server))
            #expect(try await client.send(Self.createTable("speakers")).status == 204)
            let tables = try await client.send(
                StorageRequest(.table, "GET", "/Tables", headers: [("Accept", "application/json;odata=nometadata")])
            )
            #expect(tables.status == 200)
            #expect(String(decoding: tables.body, as: UTF8.self).contains("\"speakers\""))
            #expect(
                try await client.send(StorageRequest(.blob, "PUT", "/photos", query: [("restype", "container")])).status
                    == 201
            )
            let photo = Array("a photo".utf8)
            let put = StorageRequest(
                .blob,
                "PUT",
                "/photos/ada%20lovelace.jpg",
                headers: [("x-ms-blob-type", "BlockBlob"), ("Content-Type", "image/jpeg")],
                body: photo
            )
            #expect(try await client.send(put).status == 201)
            let got = try await client.send(StorageRequest(.blob, "GET", "/photos/ada%20lovelace.jpg"))
            #expect(got.status == 200 && got.body == photo)
            #expect(client.requestsSent == 5)
        }
    }

    @Test("a wrong key is answered 403 AuthenticationFailed at once, with no retry, and no key is shown")
    func wrongKey() async throws {
        try await withRunningServer { server in
            let wrongKey = "AAAA" + DevelopmentAccount.key.dropFirst(4)
            let connection = try Self.connection(server, key: wrongKey)
            let client = StorageHTTPClient(connection: connection, retry: Self.quick)
            let reply = try await client.send(Self.createTable("speakers"))
            #expect(reply.status == 403)
            #expect(reply.header("x-ms-error-code") == nil || reply.header("x-ms-error-code") == "AuthenticationFailed")
            #expect(String(decoding: reply.body, as: UTF8.self).contains("AuthenticationFailed"))
            #expect(client.requestsSent == 1)
            #expect(
                !connection.description.contains(wrongKey) && !connection.description.contains(DevelopmentAccount.key)
            )
        }
    }

    @Test("a SAS token is appended to every request, and its permissions hold")
    func sharedAccessSignature() async throws {
        try await withRunningServer { server in
            let owner = StorageHTTPClient(connection: try Self.connection(server))
            #expect(try await owner.send(Self.createTable("speakers")).status == 204)
            let credentials = try StorageCredentials(accountName: DevelopmentAccount.name, key: DevelopmentAccount.key)
            let readOnly = try SharedAccessSignature.account(
                services: "t",
                resourceTypes: "sco",
                permissions: "rl",
                expiry: EdmDateTime.now().adding(ticks: 36_000_000_000)!
            ).signed(with: credentials)
            let connection = try Self.connection(server, sas: readOnly.token)
            let reader = StorageHTTPClient(connection: connection, retry: Self.quick)
            #expect(
                try await reader.send(
                    StorageRequest(.table, "GET", "/Tables", headers: [("Accept", "application/json;odata=nometadata")])
                ).status == 200
            )
            #expect(try await reader.send(Self.createTable("events")).status == 403)
            #expect(!connection.description.contains(readOnly.signature))
        }
    }

    @Test(
        "503 with Retry-After, 500 and a dropped connection are tried again; the tries are counted",
        arguments: [
            ("503/first=2", 3), ("500/first=1", 2), ("drop/first=2", 3),
        ]
    )
    func retries(faults: String, tries: Int) async throws {
        try await withRunningServer(
            configure: { $0.faults = try! FaultPlan(parsing: faults) },
            { server in
                let client = StorageHTTPClient(connection: try Self.connection(server), retry: Self.quick)
                let reply = try await client.send(
                    StorageRequest(.table, "GET", "/Tables", headers: [("Accept", "application/json;odata=nometadata")])
                )
                #expect(reply.status == 200)
                #expect(client.requestsSent == tries)
            }
        )
    }

    @Test("when the tries run out, the last reply is returned (503) or the last failure thrown")
    func triesRunOut() async throws {
        try await withRunningServer(
            configure: { $0.faults = try! FaultPlan(parsing: "503") },
            { server in
                let client = StorageHTTPClient(connection: try Self.connection(server), retry: Self.quick)
                let reply = try await client.send(StorageRequest(.table, "GET", "/Tables"))
                #expect(reply.status == 503 && reply.header("Retry-After") == "1")
                #expect(client.requestsSent == Self.quick.attempts)
            }
        )
    }

    @Test("a port on loopback where nothing listens fails as unreachable at once, without a retry")
    func unreachable() async throws {
        let text =
            "AccountName=\(DevelopmentAccount.name);AccountKey=\(DevelopmentAccount.key);TableEndpoint=http://127.0.0.1:1/\(DevelopmentAccount.name);BlobEndpoint=http://127.0.0.1:1/\(DevelopmentAccount.name)"
        let client = StorageHTTPClient(
            connection: try AzureConnection(ConnectionString(text)),
            retry: Self.quick,
            timeout: .seconds(5)
        )
        let error = await #expect(throws: StorageError.self) {
            try await client.send(StorageRequest(.table, "GET", "/Tables"))
        }
        #expect(error?.reason == .unreachable)
        #expect(error.map { !"\($0)".contains(DevelopmentAccount.key) } ?? false)
        // A refused connection on this machine is a server that is not running: trying again with
        // backoff took seconds to say so. (The count is the judge, not the clock: a starved run of the
        // whole suite kept a task waiting for a thread for two minutes.)
        #expect(client.requestsSent == 1)
        // In plain words, not the network library's (`connection reset (error set): Connection
        // refused) (errno: 111)`): its parentheses did not even balance.
        let message = error.map { "\($0)" } ?? ""
        #expect(
            message.contains(
                "GET http://127.0.0.1:1/\(DevelopmentAccount.name)/Tables: nothing is listening on 127.0.0.1:1"
            ),
            "\(message)"
        )
        #expect(!message.contains("errno"), "\(message)")
        #expect(message.filter { $0 == "(" }.count == message.filter { $0 == ")" }.count, "\(message)")
    }

    @Test("plain http is refused for a remote account, allowed on loopback and for the development account")
    func plainHTTP() throws {
        let remote =
            "DefaultEndpointsProtocol=http;AccountName=speakeasy;AccountKey=\(DevelopmentAccount.key);EndpointSuffix=core.windows.net"
        let error = #expect(throws: ConnectionString.ParseError.self) { try AzureConnection(ConnectionString(remote)) }
        #expect(error?.setting == "TableEndpoint")
        #expect(throws: Never.self) { try AzureConnection(ConnectionString("UseDevelopmentStorage=true")) }
        let tls = try AzureConnection(ConnectionString("AccountName=speakeasy;AccountKey=\(DevelopmentAccount.key)"))
        #expect(tls.tableEndpoint == "https://speakeasy.table.core.windows.net")
        #expect(!tls.description.contains(DevelopmentAccount.key))
    }

    @Test("backoff: Retry-After when given (bounded), else exponential with jitter, bounded")
    func backoff() {
        let policy = RetryPolicy(attempts: 6, baseDelay: .milliseconds(200), maximumDelay: .seconds(30))
        #expect(policy.delay(after: 1, retryAfter: "3") == .seconds(3))
        #expect(policy.delay(after: 1, retryAfter: "3600") == .seconds(30))
        #expect(policy.delay(after: 1, retryAfter: nil, random: 1) == .milliseconds(200))
        #expect(policy.delay(after: 3, retryAfter: nil, random: 1) == .milliseconds(800))
        #expect(policy.delay(after: 3, retryAfter: nil, random: 0.5) == .milliseconds(400))
        #expect(policy.delay(after: 20, retryAfter: nil, random: 1) == .seconds(30))
        #expect(policy.delay(after: 2, retryAfter: "soon", random: 1) == .milliseconds(400))
        #expect(
            [408, 429, 500, 502, 503, 504].allSatisfy(RetryPolicy.isRetriable)
                && ![400, 403, 404, 409, 412].contains(where: RetryPolicy.isRetriable)
        )
    }
}

/// Refusals read back as the storage seam's errors: the kind from the status, Azure's code and the
/// service's message, from serve's replies and from the recorded payloads.
@Suite("Azure client: error replies")
struct AzureErrorReplyTests {
    static func error(_ reply: StorageResponse, _ service: StorageService) -> StorageError? {
        StorageHTTPClient.storageError(
            status: reply.status,
            errorCodeHeader: reply.header("x-ms-error-code"),
            body: reply.body,
            service: service,
            account: "acct"
        )
    }

    @Test("serve's refusals: a table that exists, a missing table, a missing blob, a wrong key")
    func fromServe() async throws {
        try await withRunningServer { server in
            let client = StorageHTTPClient(connection: try StorageHTTPClientTests.connection(server))
            #expect(Self.error(try await client.send(StorageHTTPClientTests.createTable("speakers")), .table) == nil)
            let exists = try #require(
                Self.error(try await client.send(StorageHTTPClientTests.createTable("speakers")), .table)
            )
            #expect(exists.reason == .alreadyExists && exists.code == "TableAlreadyExists")
            #expect(exists.message.hasPrefix("The table specified already exists"), "\(exists.message)")
            let missing = try #require(
                Self.error(
                    try await client.send(
                        StorageRequest(
                            .table,
                            "GET",
                            "/nosuch()",
                            headers: [("Accept", "application/json;odata=minimalmetadata")]
                        )
                    ),
                    .table
                )
            )
            #expect(missing.reason == .notFound && missing.code == "TableNotFound")
            #expect(
                try await client.send(StorageRequest(.blob, "PUT", "/photos", query: [("restype", "container")])).status
                    == 201
            )
            let blob = try #require(
                Self.error(try await client.send(StorageRequest(.blob, "GET", "/photos/none.jpg")), .blob)
            )
            #expect(
                blob.reason == .notFound && blob.code == "BlobNotFound"
                    && blob.message == "The specified blob does not exist."
            )
            let wrong = StorageHTTPClient(
                connection: try StorageHTTPClientTests.connection(
                    server,
                    key: "AAAA" + DevelopmentAccount.key.dropFirst(4)
                )
            )
            let denied = try #require(
                Self.error(try await wrong.send(StorageRequest(.blob, "GET", "/photos/none.jpg")), .blob)
            )
            #expect(denied.reason == .refused && denied.code == "AuthenticationFailed")
        }
    }

    @Test("the recorded payloads: an Atom TableAlreadyExists, and a failed batch's operation index")
    func recorded() throws {
        let atom = try #require(
            StorageHTTPClient.storageError(
                status: 409,
                errorCodeHeader: nil,
                body: try FileSystem.readFile(TestPaths.azureFixtures + "/table-atom-error-table-already-exists.xml"),
                service: .table,
                account: "acct"
            )
        )
        #expect(atom.reason == .alreadyExists && atom.code == "TableAlreadyExists")
        #expect(
            StorageHTTPClient.storageError(
                status: 204,
                errorCodeHeader: nil,
                body: [],
                service: .table,
                account: "acct"
            ) == nil
        )
        let bare = try #require(
            StorageHTTPClient.storageError(
                status: 503,
                errorCodeHeader: "ServerBusy",
                body: [],
                service: .blob,
                account: "acct"
            )
        )
        #expect(bare.reason == .busy && bare.code == "ServerBusy" && bare.message == "status 503 (ServerBusy)")
    }
}
