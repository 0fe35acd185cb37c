import SpeakEasyData
import Testing

/// Shared Key against signatures the official SDKs computed: azure-data-tables 12.7.0 (Table
/// SharedKey), azure-storage-blob 12.31.1 (Blob SharedKey), cross-checked with azure-storage 0.20.3
/// (Table SharedKeyLite) and a plain HMAC-SHA256; development account key, path-style URLs.
@Suite("Shared Key")
struct SharedKeyTests {
    static let date = "Tue, 14 Sep 2021 21:24:20 GMT"
    static let now = HTTPDate.parse(date)!
    static let credentials = StorageCredentials.development

    static let tableInsert = RequestHead(
        method: "POST",
        path: "/devstoreaccount1/speakers",
        headers: [
            ("Content-Type", "application/json;odata=nometadata"), ("x-ms-date", date), ("x-ms-version", "2019-02-02"),
        ]
    )
    static let blobPut = RequestHead(
        method: "PUT",
        path: "/devstoreaccount1/photos/ada.jpg",
        headers: [
            ("Content-Length", "11"), ("Content-Type", "image/jpeg"), ("x-ms-blob-type", "BlockBlob"),
            ("x-ms-date", date),
            ("x-ms-version", "2021-08-06"),
        ]
    )
    static let blobList = RequestHead(
        method: "GET",
        path: "/devstoreaccount1/photos",
        query: "restype=container&comp=list&prefix=speakers%2F&maxresults=2",
        headers: [("x-ms-date", date), ("x-ms-version", "2021-08-06")]
    )

    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var head: RequestHead
        var service: StorageService
        var scheme: SharedKey.Scheme
        var stringToSign: String
        var signature: String
        var testDescription: String { name }
    }

    static let vectors = [
        Vector(
            name: "Table SharedKey, POST /speakers",
            head: tableInsert,
            service: .table,
            scheme: .sharedKey,
            stringToSign:
                "POST\n\napplication/json;odata=nometadata\n\(date)\n/devstoreaccount1/devstoreaccount1/speakers",
            signature: "jMEXPhMeqdxx2NJhQwdbnABbUE7kDba/1RlKJvGEx/0="
        ),
        Vector(
            name: "Table SharedKeyLite, POST /speakers",
            head: tableInsert,
            service: .table,
            scheme: .sharedKeyLite,
            stringToSign: "\(date)\n/devstoreaccount1/devstoreaccount1/speakers",
            signature: "RpnEbemEELnUkapNfMJ0vo8qgclY6SUc+xvcLk4FKKs="
        ),
        Vector(
            name: "Blob SharedKey, PUT a block blob",
            head: blobPut,
            service: .blob,
            scheme: .sharedKey,
            stringToSign:
                "PUT\n\n\n11\n\nimage/jpeg\n\n\n\n\n\n\nx-ms-blob-type:BlockBlob\nx-ms-date:\(date)\nx-ms-version:2021-08-06\n"
                + "/devstoreaccount1/devstoreaccount1/photos/ada.jpg",
            signature: "y+JlxZA+VcsTTlTXnnci42xNCdcvuwB37PX4tJry3uE="
        ),
        Vector(
            name: "Blob SharedKey, GET a container listing with a query",
            head: blobList,
            service: .blob,
            scheme: .sharedKey,
            stringToSign: "GET" + String(repeating: "\n", count: 12) + "x-ms-date:\(date)\nx-ms-version:2021-08-06\n"
                + "/devstoreaccount1/devstoreaccount1/photos\ncomp:list\nmaxresults:2\nprefix:speakers/\nrestype:container",
            signature: "Zsn7T/ijpTUj2xzFrGwyxZXz4pY4rQELPobP/NLlI0g="
        ),
    ]

    @Test("string to sign and signature match the SDKs'", arguments: vectors)
    func vector(_ vector: Vector) throws {
        let stringToSign = try SharedKey.stringToSign(
            vector.head,
            service: vector.service,
            scheme: vector.scheme,
            account: "devstoreaccount1"
        )
        #expect(stringToSign == vector.stringToSign)
        #expect(Self.credentials.sign(stringToSign) == vector.signature)
        let header = try SharedKey.authorization(
            for: vector.head,
            service: vector.service,
            scheme: vector.scheme,
            credentials: Self.credentials
        )
        #expect(header == "\(vector.scheme.rawValue) devstoreaccount1:\(vector.signature)")
    }

    @Test("the server accepts the SDK's signature and refuses a changed request", arguments: vectors)
    func verify(_ vector: Vector) throws {
        var head = vector.head
        head.headers.append(("Authorization", "\(vector.scheme.rawValue) devstoreaccount1:\(vector.signature)"))
        #expect(
            try SharedKey.verify(head, service: vector.service, credentials: Self.credentials, now: Self.now)
                == vector.scheme
        )
        // Thirty seconds of skew is fine.
        #expect(throws: Never.self) {
            try SharedKey.verify(
                head,
                service: vector.service,
                credentials: Self.credentials,
                now: Self.now.adding(ticks: 300_000_000)!
            )
        }

        var tampered = head
        tampered.path += "x"
        let error = #expect(throws: AuthorizationError.self) {
            try SharedKey.verify(tampered, service: vector.service, credentials: Self.credentials, now: Self.now)
        }
        #expect(error?.code == .authenticationFailed)
        #expect(error?.httpStatus == 403)
        #expect(error?.detail.contains("Server used following string to sign: '") == true)
    }

    @Test("a date more than 15 minutes away, either way, is refused as AuthenticationFailed")
    func staleDate() throws {
        var head = Self.tableInsert
        head.headers.append(
            ("Authorization", "SharedKey devstoreaccount1:jMEXPhMeqdxx2NJhQwdbnABbUE7kDba/1RlKJvGEx/0=")
        )
        let sixteenMinutes: Int64 = 16 * EdmDateTime.ticksPerMinute
        for now in [Self.now.adding(ticks: sixteenMinutes)!, Self.now.adding(ticks: -sixteenMinutes)!] {
            let error = #expect(throws: AuthorizationError.self) {
                try SharedKey.verify(head, service: .table, credentials: Self.credentials, now: now)
            }
            #expect(error?.code == .authenticationFailed)
            #expect(error?.detail.contains("Request date header too") == true)
        }
        let fifteen = Self.now.adding(ticks: 15 * EdmDateTime.ticksPerMinute)!
        #expect(throws: Never.self) {
            try SharedKey.verify(head, service: .table, credentials: Self.credentials, now: fifteen)
        }
    }

    @Test("a request without any date is refused")
    func missingDate() {
        let head = RequestHead(
            method: "GET",
            path: "/devstoreaccount1/Tables",
            headers: [("Authorization", "SharedKey devstoreaccount1:AAAA")]
        )
        let error = #expect(throws: AuthorizationError.self) {
            try SharedKey.verify(head, service: .table, credentials: Self.credentials, now: Self.now)
        }
        #expect(error?.detail == "Request date header not specified.")
    }

    @Test("a table request signed with its Date header (sent beside x-ms-date) is accepted")
    func tableDateHeader() throws {
        let other = "Tue, 14 Sep 2021 21:24:21 GMT"
        var head = RequestHead(
            method: "GET",
            path: "/devstoreaccount1/speakers()",
            headers: [("x-ms-date", Self.date), ("Date", other)]
        )
        let signed = try SharedKey.tableStringToSign(head, account: "devstoreaccount1", date: other)
        head.headers.append(("Authorization", "SharedKey devstoreaccount1:\(Self.credentials.sign(signed))"))
        #expect(try SharedKey.verify(head, service: .table, credentials: Self.credentials, now: Self.now) == .sharedKey)
    }

    @Test(
        "malformed Authorization headers are InvalidAuthenticationInfo (400)",
        arguments: [
            "", "SharedKey", "SharedKey ", "SharedKey devstoreaccount1", "SharedKey devstoreaccount1:",
            "SharedKey :abc", "Bearer eyJ0eXAi",
            "sharedkey devstoreaccount1:abc",
        ]
    )
    func malformedHeader(_ value: String) {
        let error = #expect(throws: AuthorizationError.self) { try SharedKeyAuthorization(parsing: value) }
        #expect(error?.code == .invalidAuthenticationInfo)
        #expect(error?.httpStatus == 400)
        #expect((error?.description.count ?? 0) < 400)
    }

    @Test("a huge Authorization header is refused before any work, with a short message")
    func hugeHeader() {
        let error = #expect(throws: AuthorizationError.self) {
            try SharedKeyAuthorization(parsing: "SharedKey devstoreaccount1:" + String(repeating: "A", count: 100_000))
        }
        #expect(error?.code == .invalidAuthenticationInfo)
        #expect((error?.description.count ?? .max) < 400)
    }

    @Test("a signature that is not base64, or for another account, fails without a crash")
    func wrongSignatures() {
        for authorization in [
            "SharedKey devstoreaccount1:not base64!",
            "SharedKey devstoreaccount1:" + String(repeating: "QUFB", count: 200), "SharedKey other:abc=",
        ] {
            var head = Self.tableInsert
            head.headers.append(("Authorization", authorization))
            let error = #expect(throws: AuthorizationError.self) {
                try SharedKey.verify(head, service: .table, credentials: Self.credentials, now: Self.now)
            }
            #expect(error?.code == .authenticationFailed)
        }
    }

    @Test("Blob SharedKeyLite is refused with a message that says so")
    func blobLite() {
        let error = #expect(throws: AuthorizationError.self) {
            try SharedKey.stringToSign(
                Self.blobPut,
                service: .blob,
                scheme: .sharedKeyLite,
                account: "devstoreaccount1"
            )
        }
        #expect(error?.detail.contains("SharedKeyLite") == true)
    }

    @Test(
        "Blob: Content-Length 0 signs as empty; x-ms headers sort as the service sorts them; a comp parameter joins the Table resource"
    )
    func canonicalization() throws {
        let head = RequestHead(
            method: "PUT",
            path: "/devstoreaccount1/photos/a",
            query: "comp=metadata&B=2&b=1",
            headers: [
                ("Content-Length", "0"), ("x-ms-meta-ab-c", " x "), ("x-ms-meta-a_b", "y"), ("X-MS-Date", Self.date),
            ]
        )
        let blob = try SharedKey.blobStringToSign(head, account: "acct")
        #expect(
            blob
                == "PUT\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:\(Self.date)\nx-ms-meta-a_b:y\nx-ms-meta-ab-c:x\n/acct/devstoreaccount1/photos/a\nb:1,2\ncomp:metadata"
        )
        let table = try SharedKey.tableStringToSign(head, account: "acct")
        #expect(table.hasSuffix("\n/acct/devstoreaccount1/photos/a?comp=metadata"))
    }

    @Test("a query that cannot be decoded fails the signature check with a clear detail")
    func undecodableQuery() {
        let head = RequestHead(method: "GET", path: "/a", query: "prefix=%FF%FE", headers: [("x-ms-date", Self.date)])
        let error = #expect(throws: AuthorizationError.self) { try SharedKey.blobStringToSign(head, account: "a") }
        #expect(error?.detail.contains("prefix=%FF%FE") == true)
    }
}
