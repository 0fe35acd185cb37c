import SpeakEasyData
import Testing

/// SAS tokens against the Python SDKs: each worked example was made with azure-data-tables 12.7.0
/// (`generate_table_sas`, `generate_account_sas`), azure-storage 0.20.3 (`generate_shared_access_signature`
/// at 2014-02-14) or azure-storage-blob 12.31.1 (`generate_blob_sas`, `generate_account_sas`), with the
/// development account key, st=2024-05-01T00:00:00Z and se=2024-05-02T00:00:00Z, and re-checked with a
/// plain HMAC-SHA256.
@Suite("Shared access signatures")
struct SharedAccessSignatureTests {
    static let credentials = StorageCredentials.development
    static let times = "st=2024-05-01T00%3A00%3A00Z&se=2024-05-02T00%3A00%3A00Z"
    static let duringWindow = EdmDateTime(year: 2024, month: 5, day: 1, hour: 12)!

    struct Example: Sendable, CustomTestStringConvertible {
        var name: String
        var query: String
        var service: StorageService
        var target: SASTarget
        var stringToSign: String
        var signature: String
        var testDescription: String { name }
    }

    static let examples = [
        Example(
            name: "azure-data-tables table SAS with a partition range",
            query: "tn=Speakers&sp=ra&spr=https,http&sv=2019-02-02&spk=speaker&epk=speaker",
            service: .table,
            target: .table("Speakers"),
            stringToSign:
                "ra\n2024-05-01T00:00:00Z\n2024-05-02T00:00:00Z\n/table/devstoreaccount1/speakers\n\n\nhttps,http\n2019-02-02\nspeaker\n\nspeaker\n",
            signature: "xZ1HL2aAzolnB+ZFEo9sJesfztlUV9V+MTFXmluoS+I="
        ),
        Example(
            name: "azure-data-tables account SAS",
            query: "ss=t&srt=oc&sp=rl&sv=2019-02-02",
            service: .table,
            target: .service,
            stringToSign: "devstoreaccount1\nrl\nt\noc\n2024-05-01T00:00:00Z\n2024-05-02T00:00:00Z\n\n\n2019-02-02\n",
            signature: "Bwg52Y93Ib52cwU+/SwgxESlLu4n+yPLIlc44Oc2ZDQ="
        ),
        Example(
            name: "azure-storage 0.20.3 table SAS at 2014-02-14",
            query: "sp=r&sv=2014-02-14&tn=speakers",
            service: .table,
            target: .table("speakers"),
            stringToSign:
                "r\n2024-05-01T00:00:00Z\n2024-05-02T00:00:00Z\n/devstoreaccount1/speakers\n\n2014-02-14\n\n\n\n",
            signature: "fe8HrPVenZp2syhe72PUNM/V9QeStSnqqTNmrRegQ/o="
        ),
        Example(
            name: "azure-storage-blob blob SAS",
            query: "sr=b&sp=r&spr=https,http&sv=2026-10-06",
            service: .blob,
            target: .blob(container: "photos", name: "speakers/ada.jpg"),
            stringToSign:
                "r\n2024-05-01T00:00:00Z\n2024-05-02T00:00:00Z\n/blob/devstoreaccount1/photos/speakers/ada.jpg\n\n\nhttps,http\n2026-10-06\nb"
                + String(repeating: "\n", count: 7),
            signature: "VWFkWA/PPDeFvQMOdxyZK7xIKKYHUk7ThUuCiPWwsjE="
        ),
        Example(
            name: "azure-storage-blob account SAS",
            query: "ss=b&srt=sco&sp=rl&sv=2026-10-06",
            service: .blob,
            target: .service,
            stringToSign:
                "devstoreaccount1\nrl\nb\nsco\n2024-05-01T00:00:00Z\n2024-05-02T00:00:00Z\n\n\n2026-10-06\n\n",
            signature: "Egh/5gCIlyadeCDytrEaYZOKk+P1wlkugpk5CrWeqw4="
        ),
    ]

    static func token(_ example: Example, signature: String? = nil) -> String {
        "\(example.query)&\(times)&sig=\(PercentEncoding.encodePath(signature ?? example.signature))"
    }

    static func parse(_ query: String) throws -> SharedAccessSignature {
        try SharedAccessSignature(query: try QueryItems(query: query))
    }

    @Test("string to sign and signature match the SDKs'", arguments: examples)
    func example(_ example: Example) throws {
        let sas = try Self.parse(Self.token(example))
        let stringToSign = try sas.stringToSign(account: "devstoreaccount1", target: example.target)
        #expect(stringToSign == example.stringToSign)
        #expect(Self.credentials.sign(stringToSign) == example.signature)
        var unsigned = sas
        unsigned.signature = ""
        #expect(try unsigned.signed(with: Self.credentials, target: example.target).signature == example.signature)
    }

    @Test("the server accepts each example inside its window, over http when spr allows it", arguments: examples)
    func verify(_ example: Example) throws {
        let sas = try Self.parse(Self.token(example))
        let grant = try sas.verify(
            credentials: Self.credentials,
            service: example.service,
            target: example.target,
            now: Self.duringWindow,
            isHTTPS: false
        )
        #expect(grant.signature == sas)
    }

    @Test("a changed field or signature fails with Azure's detail and the string to sign", arguments: examples)
    func tampered(_ example: Example) throws {
        let forged = try Self.parse(Self.token(example, signature: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="))
        let error = #expect(throws: AuthorizationError.self) {
            try forged.verify(
                credentials: Self.credentials,
                service: example.service,
                target: example.target,
                now: Self.duringWindow,
                isHTTPS: true
            )
        }
        #expect(error?.code == .authenticationFailed)
        #expect(error?.detail == "Signature did not match. String to sign used was \(example.stringToSign)")
        var widened = try Self.parse(Self.token(example))
        widened.permissions += "d"
        #expect(throws: AuthorizationError.self) {
            try widened.verify(
                credentials: Self.credentials,
                service: example.service,
                target: example.target,
                now: Self.duringWindow,
                isHTTPS: true
            )
        }
    }

    @Test("outside st…se: Azure's time-frame message")
    func window() throws {
        let sas = try Self.parse(Self.token(Self.examples[1]))
        for now in [EdmDateTime(year: 2024, month: 4, day: 30)!, EdmDateTime(year: 2024, month: 5, day: 2, second: 1)!]
        {
            let error = #expect(throws: AuthorizationError.self) {
                try sas.verify(
                    credentials: Self.credentials,
                    service: .table,
                    target: .service,
                    now: now,
                    isHTTPS: true
                )
            }
            #expect(error?.code == .authenticationFailed)
            #expect(
                error?.detail
                    == "Signature not valid in the specified time frame: Start [Wed, 01 May 2024 00:00:00 GMT] - Expiry [Thu, 02 May 2024 00:00:00 GMT] - Current [\(HTTPDate.format(now))]"
            )
        }
    }

    @Test("se before st: Azure's message")
    func expiryBeforeStart() throws {
        let sas = SharedAccessSignature.account(
            services: "t",
            resourceTypes: "sco",
            permissions: "r",
            start: EdmDateTime(year: 2024, month: 5, day: 2)!,
            expiry: EdmDateTime(year: 2024, month: 5, day: 1)!
        )
        let signed = try sas.signed(with: Self.credentials)
        let error = #expect(throws: AuthorizationError.self) {
            try signed.verify(
                credentials: Self.credentials,
                service: .table,
                target: .service,
                now: Self.duringWindow,
                isHTTPS: true
            )
        }
        #expect(
            error?.detail
                == "Signed expiry time [Wed, 01 May 2024 00:00:00 GMT] has to be after signed start time [Thu, 02 May 2024 00:00:00 GMT]"
        )
    }

    @Test("spr=https refuses http with AuthorizationProtocolMismatch")
    func protocolMismatch() throws {
        let sas = try SharedAccessSignature.table(
            "speakers",
            permissions: "r",
            expiry: EdmDateTime(year: 2024, month: 5, day: 2)!,
            protocols: "https"
        )
        .signed(with: Self.credentials)
        #expect(throws: Never.self) {
            try sas.verify(
                credentials: Self.credentials,
                service: .table,
                target: .table("speakers"),
                now: Self.duringWindow,
                isHTTPS: true
            )
        }
        let error = #expect(throws: AuthorizationError.self) {
            try sas.verify(
                credentials: Self.credentials,
                service: .table,
                target: .table("speakers"),
                now: Self.duringWindow,
                isHTTPS: false
            )
        }
        #expect(error?.code == .authorizationProtocolMismatch)
    }

    @Test(
        "an account SAS for one service used on the other: AuthorizationServiceMismatch; a table SAS on another table: AuthorizationFailure"
    )
    func serviceAndResource() throws {
        let tableAccount = try Self.parse(Self.token(Self.examples[1]))
        let error = #expect(throws: AuthorizationError.self) {
            try tableAccount.verify(
                credentials: Self.credentials,
                service: .blob,
                target: .service,
                now: Self.duringWindow,
                isHTTPS: true
            )
        }
        #expect(error?.code == .authorizationServiceMismatch)
        #expect(error?.message == "This request is not authorized to perform this operation using this service.")
        let table = try Self.parse(Self.token(Self.examples[0]))
        let other = #expect(throws: AuthorizationError.self) {
            try table.verify(
                credentials: Self.credentials,
                service: .table,
                target: .table("events"),
                now: Self.duringWindow,
                isHTTPS: true
            )
        }
        #expect(other?.code == .authorizationFailure)
        let blob = try Self.parse(Self.token(Self.examples[3]))
        let container = #expect(throws: AuthorizationError.self) {
            try blob.verify(
                credentials: Self.credentials,
                service: .blob,
                target: .container("photos"),
                now: Self.duringWindow,
                isHTTPS: true
            )
        }
        #expect(container?.code == .authorizationResourceTypeMismatch)
    }

    @Test("permissions: letters in any order; each operation needs its own")
    func permissions() throws {
        let account = SASGrant(try Self.parse(Self.token(Self.examples[1])))  // ss=t srt=oc sp=rl
        #expect(throws: Never.self) { try account.authorize(.queryEntities) }
        #expect(throws: Never.self) { try account.authorize(.getEntity) }
        #expect(
            (#expect(throws: AuthorizationError.self) { try account.authorize(.insertEntity) })?.code
                == .authorizationPermissionMismatch
        )
        #expect(throws: Never.self) { try account.authorize(.listTables) }
        let objectsOnly = SASGrant(
            .account(services: "t", resourceTypes: "o", permissions: "lr", expiry: Self.duringWindow)
        )
        #expect(
            (#expect(throws: AuthorizationError.self) { try objectsOnly.authorize(.listTables) })?.code
                == .authorizationResourceTypeMismatch
        )
        #expect(
            (#expect(throws: AuthorizationError.self) { try account.authorize(.getBlob) })?.code
                == .authorizationServiceMismatch
        )

        var upsert = SharedAccessSignature.table("speakers", permissions: "ua", expiry: Self.duringWindow)
        #expect(throws: Never.self) { try SASGrant(upsert).authorize(.insertOrMergeEntity) }
        upsert.permissions = "a"
        #expect(
            (#expect(throws: AuthorizationError.self) { try SASGrant(upsert).authorize(.insertOrReplaceEntity) })?.code
                == .authorizationPermissionMismatch
        )
        #expect(
            (#expect(throws: AuthorizationError.self) { try SASGrant(upsert).authorize(.createTable) })?.code
                == .authorizationFailure
        )

        let blob = SASGrant(SharedAccessSignature.blob(resource: "b", permissions: "cr", expiry: Self.duringWindow))
        #expect(throws: Never.self) { try blob.authorize(.createBlob) }
        #expect(throws: Never.self) { try blob.authorize(.getBlobProperties) }
        #expect(
            (#expect(throws: AuthorizationError.self) { try blob.authorize(.overwriteBlob) })?.code
                == .authorizationPermissionMismatch
        )
    }

    @Test("table key ranges are inclusive and open where a key is missing")
    func keyRanges() throws {
        let grant = SASGrant(try Self.parse(Self.token(Self.examples[0])))  // spk=epk=speaker
        #expect(grant.keyRange == TableKeyRange(startPartitionKey: "speaker", endPartitionKey: "speaker"))
        #expect(throws: Never.self) { try grant.authorizeEntity(partitionKey: "speaker", rowKey: "zz") }
        #expect(
            (#expect(throws: AuthorizationError.self) {
                try grant.authorizeEntity(partitionKey: "speakers", rowKey: "a")
            })?.code == .authorizationFailure
        )
        let rows = TableKeyRange(startPartitionKey: "p", startRowKey: "b", endPartitionKey: "q", endRowKey: "m")
        #expect(!rows.contains(partitionKey: "p", rowKey: "a"))
        #expect(rows.contains(partitionKey: "p", rowKey: "b"))
        #expect(rows.contains(partitionKey: "p", rowKey: "zzz"))
        #expect(rows.contains(partitionKey: "q", rowKey: "m"))
        #expect(!rows.contains(partitionKey: "q", rowKey: "n"))
        #expect(!rows.contains(partitionKey: "r", rowKey: ""))
        #expect(SASGrant(try Self.parse(Self.token(Self.examples[1]))).keyRange == nil)
    }

    @Test(
        "truncated or malformed tokens fail with a clear AuthenticationFailed, never a crash",
        arguments: [
            "sig=abc", "sv=2019-02-02&sp=r", "sv=2019-02-02&sig=abc&sp=r", "sv=2019-2-2&tn=t&sig=abc",
            "sv=latest&ss=b&srt=s&sig=x",
            "sv=2019-02-02&sr=x&sig=abc", "sig=&sv=2019-02-02&tn=t",
        ]
    )
    func malformed(_ query: String) {
        let error = #expect(throws: AuthorizationError.self) { try Self.parse(query) }
        #expect(error?.code == .authenticationFailed)
        #expect(error?.detail.isEmpty == false)
    }

    @Test("unknown or missing times and unknown old versions fail at verification")
    func badFields() throws {
        let base = "tn=speakers&sp=r&sig=abc&sv="
        for (query, detail) in [
            (base + "2019-02-02", "se is mandatory. Cannot be empty"),
            (base + "2019-02-02&se=tomorrow", "se 'tomorrow' is not a valid ISO 8601 time."),
            (
                base + "2011-01-01&se=2024-05-02",
                "sv '2011-01-01' is older than any SAS version this server supports for this kind of SAS."
            ),
            (
                // A stored policy must be one of the resource's (none are given here).
                base + "2019-02-02&se=2024-05-02&si=policy",
                "The signed identifier 'policy' is not a stored access policy of this resource."
            ),
        ] {
            let sas = try Self.parse(query)
            let error = #expect(throws: AuthorizationError.self) {
                try sas.verify(
                    credentials: Self.credentials,
                    service: .table,
                    target: .table("speakers"),
                    now: Self.duringWindow,
                    isHTTPS: true
                )
            }
            #expect(error?.detail == detail)
        }
        let huge = try Self.parse(
            "ss=b&srt=s&sp=r&sv=2019-02-02&se=2024-05-02&sig=" + String(repeating: "A", count: 1_000_000)
        )
        #expect(throws: AuthorizationError.self) {
            try huge.verify(
                credentials: Self.credentials,
                service: .blob,
                target: .service,
                now: Self.duringWindow,
                isHTTPS: true
            )
        }
    }

    @Test("SAS times in every form Azure accepts")
    func times() {
        #expect(SASTime.parse("2024-05-01") == EdmDateTime(year: 2024, month: 5, day: 1))
        #expect(SASTime.parse("2024-05-01T10:30Z") == EdmDateTime(year: 2024, month: 5, day: 1, hour: 10, minute: 30))
        #expect(
            SASTime.parse("2024-05-01T10:30:15Z")
                == EdmDateTime(year: 2024, month: 5, day: 1, hour: 10, minute: 30, second: 15)
        )
        #expect(SASTime.parse("2024-05-01T10:30:15.1234567Z") != nil)
        #expect(SASTime.parse("yesterday") == nil)
        #expect(
            SASTime.format(EdmDateTime(year: 2024, month: 5, day: 1, hour: 10, minute: 30, second: 15, fraction: 5)!)
                == "2024-05-01T10:30:15Z"
        )
    }

    @Test("a created token reads back to itself and hides its signature when printed")
    func roundTrip() throws {
        let sas = try SharedAccessSignature.table(
            "Speakers",
            permissions: "raud",
            start: EdmDateTime(year: 2024, month: 5, day: 1)!,
            expiry: EdmDateTime(year: 2024, month: 5, day: 2)!,
            protocols: "https,http",
            keyRange: TableKeyRange(startPartitionKey: "a b", endPartitionKey: "z/+")
        ).signed(with: Self.credentials)
        #expect(try Self.parse(sas.token) == sas)
        #expect(!sas.description.contains(sas.signature))
        #expect(sas.token.contains("spr=https%2Chttp"))
    }
}
