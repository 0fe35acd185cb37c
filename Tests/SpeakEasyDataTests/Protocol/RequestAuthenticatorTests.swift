import SpeakEasyData
import Testing

@Suite("Request authentication")
struct RequestAuthenticatorTests {
    static let authenticator = RequestAuthenticator(credentials: .development)
    static let date = "Tue, 14 Sep 2021 21:24:20 GMT"
    static let now = HTTPDate.parse(date)!

    @Test("no Authorization and no sig: anonymous, for the server to decide by container access")
    func anonymous() throws {
        let head = RequestHead(method: "GET", path: "/devstoreaccount1/photos/ada.jpg", query: "timeout=30")
        #expect(
            try Self.authenticator.authenticate(
                head,
                service: .blob,
                target: .blob(container: "photos", name: "ada.jpg"),
                now: Self.now
            ) == .anonymous
        )
    }

    @Test("Shared Key and SharedKeyLite on tables, Shared Key on blobs")
    func sharedKey() throws {
        for (service, scheme) in [
            (StorageService.table, SharedKey.Scheme.sharedKey), (.table, .sharedKeyLite), (.blob, .sharedKey),
        ] {
            var head = RequestHead(
                method: "GET",
                path: "/devstoreaccount1/speakers()",
                headers: [("x-ms-date", Self.date), ("x-ms-version", "2019-02-02")]
            )
            head.headers.append(
                (
                    "Authorization",
                    try SharedKey.authorization(for: head, service: service, scheme: scheme, credentials: .development)
                )
            )
            #expect(
                try Self.authenticator.authenticate(head, service: service, target: .table("speakers"), now: Self.now)
                    == .sharedKey(scheme)
            )
            let stale = Self.now.adding(ticks: 20 * EdmDateTime.ticksPerMinute)!
            let error = #expect(throws: AuthorizationError.self) {
                try Self.authenticator.authenticate(head, service: service, target: .service, now: stale)
            }
            #expect(error?.code == .authenticationFailed)
        }
    }

    @Test("a SAS in the query returns its grant")
    func sas() throws {
        let now = EdmDateTime(year: 2024, month: 5, day: 1, hour: 12)!
        let sas = try SharedAccessSignature.blob(
            resource: "c",
            permissions: "rl",
            expiry: EdmDateTime(year: 2024, month: 5, day: 2)!
        )
        .signed(with: .development, target: .container("photos"))
        let head = RequestHead(method: "GET", path: "/devstoreaccount1/photos/ada.jpg", query: "timeout=5&" + sas.token)
        let result = try Self.authenticator.authenticate(
            head,
            service: .blob,
            target: .blob(container: "photos", name: "ada.jpg"),
            now: now
        )
        guard case .sharedAccessSignature(let grant) = result else {
            Issue.record("expected a SAS grant, got \(result)")
            return
        }
        #expect(throws: Never.self) { try grant.authorize(.getBlob) }
        #expect(
            (#expect(throws: AuthorizationError.self) { try grant.authorize(.deleteBlob) })?.code
                == .authorizationPermissionMismatch
        )
        let elsewhere = #expect(throws: AuthorizationError.self) {
            try Self.authenticator.authenticate(
                head,
                service: .blob,
                target: .blob(container: "other", name: "ada.jpg"),
                now: now
            )
        }
        #expect(elsewhere?.code == .authenticationFailed)
    }

    @Test("an undecodable query is refused, not crashed on")
    func badQuery() {
        let head = RequestHead(method: "GET", path: "/devstoreaccount1/photos", query: "sig=%E0%80")
        #expect(throws: AuthorizationError.self) {
            try Self.authenticator.authenticate(head, service: .blob, target: .container("photos"), now: Self.now)
        }
    }

    @Test("a SAS verified once is still checked for time, resource and tampering on every later request")
    func verifiedOnce() throws {
        let authenticator = RequestAuthenticator(credentials: .development)
        let now = EdmDateTime(year: 2024, month: 5, day: 1, hour: 12)!
        let sas = try SharedAccessSignature.blob(
            resource: "c",
            permissions: "r",
            expiry: EdmDateTime(year: 2024, month: 5, day: 2)!
        )
        .signed(with: .development, target: .container("photos"))
        let head = RequestHead(method: "GET", path: "/devstoreaccount1/photos/ada.jpg", query: sas.token)
        let target = SASTarget.blob(container: "photos", name: "ada.jpg")
        for _ in 0..<2 { _ = try authenticator.authenticate(head, service: .blob, target: target, now: now) }
        // The same token, remembered as valid: a day later it has expired.
        let later = now.adding(ticks: 2 * 24 * 60 * EdmDateTime.ticksPerMinute)!
        let expired = #expect(throws: AuthorizationError.self) {
            try authenticator.authenticate(head, service: .blob, target: target, now: later)
        }
        #expect(expired?.detail.contains("time frame") == true)
        #expect(throws: AuthorizationError.self) {
            try authenticator.authenticate(
                head,
                service: .blob,
                target: .blob(container: "other", name: "ada.jpg"),
                now: now
            )
        }
        // Wider permissions with the remembered signature: no longer what was signed.
        var widened = sas
        widened.permissions = "rwd"
        let tampered = RequestHead(method: "GET", path: "/devstoreaccount1/photos/ada.jpg", query: widened.token)
        let error = #expect(throws: AuthorizationError.self) {
            try authenticator.authenticate(tampered, service: .blob, target: target, now: now)
        }
        #expect(error?.detail.contains("Signature did not match") == true)
    }

    @Test("a request's query is decoded once, and again when it is set")
    func queryDecodedWhenSet() throws {
        var head = RequestHead(method: "GET", path: "/devstoreaccount1/photos", query: "comp=list")
        #expect(try head.queryItems.get()["COMP"] == "list")
        head.query = "restype=container&comp=acl"
        #expect(try head.queryItems.get()["comp"] == "acl")
        head.query = "comp=%zz"
        #expect(throws: QueryItems.DecodingError.self) { try head.queryItems.get() }
    }
}
