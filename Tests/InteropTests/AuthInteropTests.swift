import Foundation
import SpeakEasyData
import Testing

/// Our Shared Key and SAS against the official Azure SDKs for Python: azure-data-tables 12.7.0 and
/// azure-storage-blob 12.31.1 generate SAS tokens (`generate_*_sas`, fixed start and expiry) and
/// sign requests with their own SharedKeyCredentialPolicy, azure-storage 0.20.3 with its 2014-02-14
/// table SAS and StorageTableSharedKeyAuthentication (`python/auth_signatures.py`); we must produce
/// exactly the same tokens and headers, and our server side must accept them.
@Suite("Shared Key and SAS interop with the Azure SDKs", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct AuthInteropTests {
    struct Case: Decodable {
        struct Target: Decodable {
            var service: Bool?
            var table: String?
            var container: String?
            var blob: String?
        }

        var kind: String
        var name: String
        var service: String
        // SAS
        var target: Target?
        var token: String?
        var stringToSign: String?
        // Shared Key
        var method: String?
        var path: String?
        var query: String?
        var headers: [[String]]?
        var authorization: String?
        // Collation
        var names: [String]?
        /// azure-storage 0.20.3 signs the `Date` header where the newer SDKs sign `x-ms-date`.
        var signsDate: Bool?
    }

    static func cases(_ kind: String) throws -> [Case] {
        try PythonSDK.run("auth_signatures.py", []).split(separator: UInt8(ascii: "\n")).map {
            try JSONDecoder().decode(Case.self, from: Data($0))
        }.filter { $0.kind == kind }
    }

    static let credentials = StorageCredentials.development
    static let duringWindow = EdmDateTime(year: 2024, month: 5, day: 1, hour: 12)!
    static let requestDate = HTTPDate.parse("Tue, 14 Sep 2021 21:24:20 GMT")!

    static func target(_ target: Case.Target?) -> SASTarget {
        switch (target?.table, target?.container, target?.blob) {
        case (let table?, _, _): .table(table)
        case (nil, let container?, let blob?): .blob(container: container, name: blob)
        case (nil, let container?, nil): .container(container)
        default: .service
        }
    }

    @Test("the SDKs' SAS tokens: same string to sign, same signature, same token text, accepted by our verifier")
    func sasTokens() throws {
        let cases = try Self.cases("sas")
        #expect(cases.count == 13)
        for sdk in cases {
            let service = try #require(StorageService(rawValue: sdk.service))
            let token = try #require(sdk.token)
            let target = Self.target(sdk.target)
            let parsed = try SharedAccessSignature(query: try QueryItems(query: token))
            if let expected = sdk.stringToSign {
                #expect(try parsed.stringToSign(account: "devstoreaccount1", target: target) == expected, "\(sdk.name)")
            }
            var unsigned = parsed
            unsigned.signature = ""
            let ours = try unsigned.signed(with: Self.credentials, target: target)
            #expect(ours.signature == parsed.signature, "\(sdk.name)")
            #expect(ours.token == token, "\(sdk.name)")
            let grant = try parsed.verify(
                credentials: Self.credentials,
                service: service,
                target: target,
                now: Self.duringWindow,
                isHTTPS: true
            )
            #expect(grant.signature == parsed, "\(sdk.name)")
            // Through the server's entry point, appended to a request's own query.
            let head = RequestHead(method: "GET", path: "/devstoreaccount1/x", query: "timeout=30&" + token)
            let result = try RequestAuthenticator(credentials: Self.credentials).authenticate(
                head,
                service: service,
                target: target,
                now: Self.duringWindow,
                isHTTPS: true
            )
            #expect(result == .sharedAccessSignature(grant), "\(sdk.name)")
        }
    }

    @Test("the SDKs' Shared Key headers: we compute the same Authorization, and our server accepts theirs")
    func sharedKey() throws {
        let cases = try Self.cases("sharedkey")
        #expect(cases.count == 9)
        for sdk in cases {
            let service = try #require(StorageService(rawValue: sdk.service))
            let headers = (sdk.headers ?? []).map { (name: $0[0], value: $0[1]) }
            var head = RequestHead(
                method: try #require(sdk.method),
                path: try #require(sdk.path),
                query: sdk.query ?? "",
                headers: headers
            )
            if sdk.signsDate == true {
                let stringToSign = try SharedKey.tableStringToSign(
                    head,
                    account: "devstoreaccount1",
                    date: head.header("Date")
                )
                #expect(
                    "SharedKey devstoreaccount1:\(Self.credentials.sign(stringToSign))" == sdk.authorization,
                    "\(sdk.name)"
                )
            } else {
                #expect(
                    try SharedKey.authorization(for: head, service: service, credentials: Self.credentials)
                        == sdk.authorization,
                    "\(sdk.name)"
                )
            }
            head.headers.append(("Authorization", try #require(sdk.authorization)))
            let result = try RequestAuthenticator(credentials: Self.credentials).authenticate(
                head,
                service: service,
                target: .service,
                now: Self.requestDate
            )
            #expect(result == .sharedKey(.sharedKey), "\(sdk.name)")
        }
    }

    /// The client as it sends: each SDK request rebuilt as the client's request (decoded query,
    /// the body its Content-Length says), prepared at the SDK's date for the development account.
    @Test("the Azure client's Authorization for the SDKs' requests is the SDKs', header for header")
    func clientSigning() throws {
        let connection = try AzureConnection(ConnectionString("UseDevelopmentStorage=true"))
        let client = StorageHTTPClient(connection: connection)
        let cases = try Self.cases("sharedkey").filter { $0.signsDate != true }
        #expect(cases.count == 8)
        for sdk in cases {
            let service = try #require(StorageService(rawValue: sdk.service))
            let headers = (sdk.headers ?? []).map { (name: $0[0], value: $0[1]) }
            let date = try #require(headers.first { $0.name == "x-ms-date" }.flatMap { HTTPDate.parse($0.value) })
            let length = headers.first { $0.name == "Content-Length" }.flatMap { Int($0.value) } ?? 0
            let query = (sdk.query ?? "").split(separator: "&").map { item in
                let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (
                    name: PercentEncoding.decode(String(parts[0])) ?? "",
                    value: PercentEncoding.decode(parts.count > 1 ? String(parts[1]) : "") ?? ""
                )
            }
            let request = StorageRequest(
                service,
                try #require(sdk.method),
                String(try #require(sdk.path).dropFirst("/devstoreaccount1".count)),
                query: query,
                headers: headers.filter { !["x-ms-date", "Content-Length"].contains($0.name) },
                body: [UInt8](repeating: 0, count: length)
            )
            let sent = try client.prepared(request, date: date).headers
            #expect(sent.first { $0.name == "Authorization" }?.value == sdk.authorization, "\(sdk.name)")
        }
    }

    @Test("x-ms-* header names sort as azure-storage-blob's emulation of the service's collation")
    func headerCollation() throws {
        let expected = try #require(try Self.cases("collation").first?.names)
        #expect(expected.count == 20)
        #expect(expected.reversed().sorted(by: StorageHeaderCollation.precedes) == expected)
        #expect(expected.shuffled().sorted(by: StorageHeaderCollation.precedes) == expected)
    }
}
