import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// Azure's rules that Azurite's blob tests (Azure/Azurite, tests/blob/) expect of a server, each
/// with the source it follows: names, conditional requests, MD5, SAS and the features `serve` does
/// not claim.
@Suite("serve: Azure's blob rules")
struct BlobIssue28RuleTests {
    typealias Reply = HTTPReply

    func request(
        _ server: RunningServer,
        _ method: String,
        _ path: String,
        query: String = "",
        headers: [String: String] = [:],
        body: [UInt8] = []
    )
        async throws -> Reply
    {
        try await BlobBadRequestTests.request(
            method,
            port: server.port(.blob),
            path: path,
            query: query,
            headers: headers,
            body: body
        )
    }

    func put(
        _ server: RunningServer,
        _ path: String,
        _ text: String,
        headers: [String: String] = [:]
    ) async throws -> Reply {
        try await request(
            server,
            "PUT",
            path,
            headers: ["x-ms-blob-type": "BlockBlob"].merging(headers) { $1 },
            body: Array(text.utf8)
        )
    }

    func sas(_ token: SharedAccessSignature, target: SASTarget) throws -> String {
        try token.signed(with: .development, target: target).token
    }

    func anonymous(_ server: RunningServer, _ method: String, _ pathAndQuery: String) async throws -> Reply {
        try await send(method, "http://127.0.0.1:\(server.port(.blob))/\(DevelopmentAccount.name)/\(pathAndQuery)")
    }

    @Test("a control character in a blob name is 400 InvalidResourceName; a backslash is a slash, for a SAS too")
    func names() async throws {
        try await withRunningServer { server in
            #expect(try await request(server, "PUT", "names", query: "restype=container").status == 201)
            // Azure's "Naming and Referencing Containers, Blobs, and Metadata": control characters
            // (0x00-0x1F, \u0081, ...) are not allowed. Before, %00 answered 500 and was stored.
            for name in ["nul%00name", "bell%07", "c1%C2%81"] {
                let reply = try await put(server, "names/\(name)", "x")
                #expect(reply.status == 400, "\(name)")
                #expect(reply.errorCode == "InvalidResourceName", "\(name)")
            }
            let listing = try await request(server, "GET", "names", query: "restype=container&comp=list")
            #expect(!listing.text.contains("<Blob>"), "nothing was stored")
            // Azurite (src/blob/middlewares/blobStorageContext.middleware.ts): "Azure Storage Server
            // will replace "\" with "/" in the blob names"; its SAS test signs the name with "/".
            #expect(try await put(server, "names/dir%5Cfile.txt", "backslash").status == 201)
            let listed = try await request(server, "GET", "names", query: "restype=container&comp=list")
            #expect(listed.text.contains("<Name>dir/file.txt</Name>"), "\(listed.text)")
            let expiry = try #require(EdmDateTime.now().adding(ticks: 3_600 * EdmDateTime.ticksPerSecond))
            let token = SharedAccessSignature.blob(resource: "b", permissions: "r", expiry: expiry)
            let slash = try sas(token, target: .blob(container: "names", name: "dir/file.txt"))
            let backslash = try sas(token, target: .blob(container: "names", name: "dir\\file.txt"))
            let bySlash = try await anonymous(server, "GET", "names/dir%5Cfile.txt?\(slash)")
            #expect(bySlash.status == 200)
            #expect(bySlash.text == "backslash")
            #expect(try await anonymous(server, "GET", "names/dir/file.txt?\(slash)").status == 200)
            #expect(
                try await anonymous(server, "GET", "names/dir%5Cfile.txt?\(backslash)").status == 403,
                "signed for a name Azure does not use"
            )
            // Azurite: src/blob/utils/utils.ts `validateContainerName` (OutOfRangeInput for length).
            for container in ["ab", String(repeating: "a", count: 64)] {
                let reply = try await request(server, "PUT", container, query: "restype=container")
                #expect(reply.status == 400)
                #expect(reply.errorCode == "OutOfRangeInput", "\(container)")
            }
            #expect(
                try await request(server, "PUT", "Bad_Name", query: "restype=container").errorCode
                    == "InvalidResourceName"
            )
        }
    }

    @Test(
        "reads hold when If-Match && If-Unmodified-Since && (If-None-Match || If-Modified-Since); writes refuse mixed conditions"
    )
    func conditionalRule() async throws {
        try await withRunningServer { server in
            #expect(try await request(server, "PUT", "cond", query: "restype=container").status == 201)
            let etag = try #require(try await put(server, "cond/b.txt", "bytes").header("ETag"))
            let modified = try #require(try await request(server, "HEAD", "cond/b.txt").header("Last-Modified"))
            func get(_ headers: [String: String]) async throws -> Int {
                try await request(server, "GET", "cond/b.txt", headers: headers).status
            }
            // The issue's cases, from Azure's "Specifying conditional headers for Blob service operations".
            #expect(try await get(["If-Match": "*,\"abc\""]) == 200)
            #expect(try await get(["If-Match": "\"abc\", \(etag)"]) == 200)
            #expect(try await get(["If-Match": "\"abc\""]) == 412)
            #expect(try await get(["If-None-Match": "\"0x0\",\(etag)"]) == 304)
            #expect(try await get(["If-None-Match": "\"0x0\""]) == 200)
            // (If-None-Match || If-Modified-Since): one holding is enough.
            #expect(
                try await get(["If-None-Match": etag, "If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"]) == 200
            )
            #expect(try await get(["If-None-Match": etag, "If-Modified-Since": modified]) == 304)
            #expect(try await get(["If-Match": etag, "If-Unmodified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"]) == 412)
            // Azurite's ReadConditionalHeadersValidator: If-None-Match: * cannot hold for a read.
            let star = try await request(server, "GET", "cond/b.txt", headers: ["If-None-Match": "*"])
            #expect(star.status == 400)
            #expect(star.errorCode == "UnsatisfiableCondition")
            // Writes: one ETag a header, and If-Match/If-Unmodified-Since or If-None-Match/If-Modified-Since
            // (Azurite's WriteConditionalHeadersValidator `validateCombinations`).
            for headers in [
                ["If-Match": "*,\(etag)"], ["If-Match": etag, "If-None-Match": "\"0x0\""],
                ["If-Match": etag, "If-Modified-Since": modified],
                ["If-Match": etag, "If-Unmodified-Since": modified, "If-None-Match": "\"0x0\""],
            ] {
                let reply = try await put(server, "cond/b.txt", "again", headers: headers)
                #expect(reply.status == 400, "\(headers)")
                #expect(reply.errorCode == "MultipleConditionHeadersNotSupported", "\(headers)")
            }
            #expect(
                try await put(
                    server,
                    "cond/b.txt",
                    "again",
                    headers: ["If-Match": etag, "If-Unmodified-Since": modified]
                ).status == 201
            )
        }
    }

    @Test(
        "MD5: a malformed x-ms-blob-content-md5 is InvalidMd5; it is the stored MD5 of a block list; a range's own MD5 on request"
    )
    func md5() async throws {
        try await withRunningServer { server in
            #expect(try await request(server, "PUT", "md5", query: "restype=container").status == 201)
            // Azurite's tests/blob/apis/blob.test.ts "upload invalid x-ms-blob-content-md5".
            let bad = try await put(server, "md5/a.txt", "hello", headers: ["x-ms-blob-content-md5": "invalid-md5"])
            #expect(bad.status == 400)
            #expect(bad.errorCode == "InvalidMd5")
            #expect(
                try await request(
                    server,
                    "PUT",
                    "md5/blocks",
                    query: "comp=block&blockid=MQ%3D%3D",
                    body: Array("0123456789".utf8)
                ).status == 201
            )
            let list = Array(
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><BlockList><Latest>MQ==</Latest></BlockList>".utf8
            )
            let listMD5 = BlobProperties.contentMD5(of: list)
            let declared = "AAAAAAAAAAAAAAAAAAAAAA=="
            let committed = try await request(
                server,
                "PUT",
                "md5/blocks",
                query: "comp=blocklist",
                headers: ["Content-MD5": listMD5, "x-ms-blob-content-md5": declared],
                body: list
            )
            #expect(committed.status == 201)
            #expect(committed.header("Content-MD5") == listMD5, "the reply's MD5 is the list's")
            // x-ms-blob-content-md5 is what the blob keeps (Azurite: BlockBlobHandler.ts `commitBlockList`).
            #expect(try await request(server, "HEAD", "md5/blocks").header("Content-MD5") == declared)
            let badList = try await request(
                server,
                "PUT",
                "md5/blocks",
                query: "comp=blocklist",
                headers: ["x-ms-blob-content-md5": "nope"],
                body: list
            )
            #expect(badList.errorCode == "InvalidMd5")
            let ranged = try await request(
                server,
                "GET",
                "md5/blocks",
                headers: ["x-ms-range": "bytes=2-5", "x-ms-range-get-content-md5": "true"]
            )
            #expect(ranged.status == 206)
            #expect(ranged.header("Content-MD5") == BlobProperties.contentMD5(of: Array("2345".utf8)))
            #expect(ranged.header("x-ms-blob-content-md5") == declared)
            #expect(
                try await request(server, "GET", "md5/blocks", headers: ["x-ms-range": "bytes=2-5"]).header(
                    "Content-MD5"
                ) == nil
            )
            #expect(
                try await request(server, "GET", "md5/blocks", headers: ["x-ms-range-get-content-md5": "true"]).status
                    == 400,
                "no range"
            )
        }
    }

    @Test("SAS: sig twice is 403; a container SAS cannot read the container's properties; si resolves a stored policy")
    func sasRules() async throws {
        try await withRunningServer { server in
            #expect(try await request(server, "PUT", "sas", query: "restype=container").status == 201)
            #expect(try await put(server, "sas/a.txt", "stored policy").status == 201)
            let expiry = try #require(EdmDateTime.now().adding(ticks: 3_600 * EdmDateTime.ticksPerSecond))
            let blobToken = try sas(
                SharedAccessSignature.blob(resource: "b", permissions: "r", expiry: expiry),
                target: .blob(container: "sas", name: "a.txt")
            )
            #expect(try await anonymous(server, "GET", "sas/a.txt?\(blobToken)").status == 200)
            // Azurite's tests/blob/sas.test.ts "… should reject duplicate SAS signature query".
            #expect(try await anonymous(server, "GET", "sas/a.txt?\(blobToken)&sig=duplicated-signature").status == 403)
            // Azurite's tests/blob/sas.test.ts "Container operations on container should fail with container SAS".
            let containerToken = try sas(
                SharedAccessSignature.blob(resource: "c", permissions: "racwdl", expiry: expiry),
                target: .container("sas")
            )
            #expect(try await anonymous(server, "GET", "sas?restype=container&\(containerToken)").status == 403)
            #expect(
                try await anonymous(server, "GET", "sas?restype=container&comp=list&\(containerToken)").status == 200
            )

            // Stored access policies: Set Container ACL, then a SAS that names one with si.
            let acl = """
                <?xml version="1.0" encoding="utf-8"?><SignedIdentifiers><SignedIdentifier><Id>readers</Id><AccessPolicy>\
                <Start>2020-01-01T00:00:00.0000000Z</Start><Expiry>2099-01-01T00:00:00.0000000Z</Expiry><Permission>r</Permission>\
                </AccessPolicy></SignedIdentifier><SignedIdentifier><Id>open</Id><AccessPolicy /></SignedIdentifier></SignedIdentifiers>
                """
            #expect(
                try await request(server, "PUT", "sas", query: "restype=container&comp=acl", body: Array(acl.utf8))
                    .status == 200
            )
            let got = try await request(server, "GET", "sas", query: "restype=container&comp=acl")
            #expect(
                got.text.contains(
                    "<Id>readers</Id><AccessPolicy><Start>2020-01-01T00:00:00.0000000Z</Start><Expiry>2099-01-01T00:00:00.0000000Z</Expiry><Permission>r</Permission>"
                ),
                "\(got.text)"
            )
            #expect(got.header("x-ms-blob-public-access") == nil)
            func stored(_ id: String, permissions: String = "", expiry: EdmDateTime? = nil) throws -> String {
                var token = SharedAccessSignature(
                    version: "2026-10-06",
                    permissions: permissions,
                    expiry: expiry.map(SASTime.format)
                )
                token.resource = "b"
                token.identifier = id
                return try sas(token, target: .blob(container: "sas", name: "a.txt"))
            }
            let byPolicy = try await anonymous(server, "GET", "sas/a.txt?\(try stored("readers"))")
            #expect(byPolicy.status == 200)
            #expect(byPolicy.text == "stored policy")
            #expect(
                try await anonymous(server, "PUT", "sas/a.txt?\(try stored("readers"))").status == 403,
                "the policy grants r only"
            )
            // A field in both the SAS and the policy is refused ("Define a stored access policy").
            #expect(
                try await anonymous(server, "GET", "sas/a.txt?\(try stored("readers", permissions: "r"))").status == 403
            )
            #expect(
                try await anonymous(server, "GET", "sas/a.txt?\(try stored("open", permissions: "r", expiry: expiry))")
                    .status == 200
            )
            #expect(
                try await anonymous(server, "GET", "sas/a.txt?\(try stored("open", permissions: "r"))").status == 403,
                "no expiry anywhere"
            )
            #expect(try await anonymous(server, "GET", "sas/a.txt?\(try stored("missing"))").status == 403)
            // Revoking the policy revokes the SAS.
            #expect(try await request(server, "PUT", "sas", query: "restype=container&comp=acl").status == 200)
            #expect(try await anonymous(server, "GET", "sas/a.txt?\(try stored("readers"))").status == 403)
            // Azurite answers InvalidXmlDocument for more than five identifiers.
            let six =
                "<SignedIdentifiers>"
                + (1...6).map { "<SignedIdentifier><Id>p\($0)</Id><AccessPolicy /></SignedIdentifier>" }.joined()
                + "</SignedIdentifiers>"
            #expect(
                try await request(server, "PUT", "sas", query: "restype=container&comp=acl", body: Array(six.utf8))
                    .errorCode == "InvalidXmlDocument"
            )
            let publicLevel = try await request(
                server,
                "PUT",
                "sas",
                query: "restype=container&comp=acl",
                headers: ["x-ms-blob-public-access": "container"]
            )
            #expect(publicLevel.status == 200)
            #expect(try await anonymous(server, "GET", "sas?restype=container&comp=list").status == 200)
        }
    }

    @Test("features serve does not claim answer 501 NotImplemented naming the feature, never 500")
    func unclaimedFeatures() async throws {
        try await withRunningServer { server in
            #expect(try await request(server, "PUT", "feat", query: "restype=container").status == 201)
            #expect(try await put(server, "feat/a.txt", "x").status == 201)
            let cases: [(String, String, String, [String: String], String)] = [
                (
                    "PUT", "feat/a.txt", "comp=lease", ["x-ms-lease-action": "acquire", "x-ms-lease-duration": "-1"],
                    "leases"
                ),
                ("PUT", "feat", "restype=container&comp=lease", ["x-ms-lease-action": "acquire"], "leases"),
                ("PUT", "feat/a.txt", "comp=snapshot", [:], "snapshots"),
                ("PUT", "feat/b.txt", "", ["x-ms-copy-source": "http://127.0.0.1/devstoreaccount1/feat/a.txt"], "copy"),
                ("PUT", "feat/a.txt", "comp=tags", [:], "blob tags"),
                ("PUT", "feat/a.txt", "comp=tier", ["x-ms-access-tier": "Cool"], "access tiers"),
                ("PUT", "feat/c.txt", "", ["x-ms-blob-type": "AppendBlob"], "append blobs"),
                (
                    "PUT", "feat/d.txt", "", ["x-ms-blob-type": "PageBlob", "x-ms-blob-content-length": "512"],
                    "page blobs"
                ),
                ("POST", "", "comp=batch", [:], "blob batch"),
                ("GET", "", "restype=service&comp=properties", [:], "service properties"),
            ]
            for (method, path, query, headers, feature) in cases {
                let reply = try await request(server, method, path, query: query, headers: headers)
                #expect(reply.status == 501, "\(method) \(path)?\(query)")
                #expect(reply.errorCode == "NotImplemented", "\(method) \(path)?\(query)")
                #expect(reply.text.contains(feature), "\(reply.text)")
            }
        }
    }

    @Test("List Containers' marker starts after the named container")
    func listContainersMarker() async throws {
        try await withRunningServer { server in
            for name in ["aaa", "bbb", "ccc", "ddd"] {
                #expect(try await request(server, "PUT", name, query: "restype=container").status == 201)
            }
            let after = try await request(server, "GET", "", query: "comp=list&marker=bbb")
            #expect(!after.text.contains("<Name>bbb</Name>"))
            #expect(after.text.contains("<Name>ccc</Name>"))
            let first = try await request(server, "GET", "", query: "comp=list&maxresults=2")
            #expect(first.text.contains("<NextMarker>bbb</NextMarker>"), "\(first.text)")
        }
    }

    @Test("HEAD gives a blob's properties and length without its content; Get Blob Metadata its metadata")
    func head() async throws {
        try await withRunningServer { server in
            #expect(try await request(server, "PUT", "head", query: "restype=container").status == 201)
            let data = String(repeating: "0123456789", count: 200_000)
            #expect(
                try await put(
                    server,
                    "head/big.bin",
                    data,
                    headers: ["x-ms-meta-Owner": "ada", "x-ms-blob-cache-control": "no-cache"]
                ).status == 201
            )
            let head = try await request(server, "HEAD", "head/big.bin")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == "2000000")
            #expect(head.header("x-ms-meta-Owner") == "ada")
            #expect(head.header("Cache-Control") == "no-cache")
            #expect(head.header("Content-MD5") == BlobProperties.contentMD5(of: Array(data.utf8)))
            let metadata = try await request(server, "GET", "head/big.bin", query: "comp=metadata")
            #expect(metadata.status == 200)
            #expect(metadata.header("x-ms-meta-Owner") == "ada")
            #expect(metadata.body.isEmpty)
        }
    }
}
