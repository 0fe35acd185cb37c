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
                head, service: .blob, target: .blob(container: "photos", name: "ada.jpg"), now: Self.now) == .anonymous)
    }

    @Test("Shared Key and SharedKeyLite on tables, Shared Key on blobs")
    func sharedKey() throws {
        for (service, scheme) in [
            (StorageService.table, SharedKey.Scheme.sharedKey), (.table, .sharedKeyLite), (.blob, .sharedKey),
        ] {
            var head = RequestHead(
                method: "GET", path: "/devstoreaccount1/speakers()",
                headers: [("x-ms-date", Self.date), ("x-ms-version", "2019-02-02")])
            head.headers.append(
                (
                    "Authorization",
                    try SharedKey.authorization(for: head, service: service, scheme: scheme, credentials: .development)
                ))
            #expect(
                try Self.authenticator.authenticate(head, service: service, target: .table("speakers"), now: Self.now)
                    == .sharedKey(scheme))
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
            resource: "c", permissions: "rl", expiry: EdmDateTime(year: 2024, month: 5, day: 2)!
        )
        .signed(with: .development, target: .container("photos"))
        let head = RequestHead(method: "GET", path: "/devstoreaccount1/photos/ada.jpg", query: "timeout=5&" + sas.token)
        let result = try Self.authenticator.authenticate(
            head, service: .blob, target: .blob(container: "photos", name: "ada.jpg"), now: now)
        guard case .sharedAccessSignature(let grant) = result else {
            Issue.record("expected a SAS grant, got \(result)")
            return
        }
        #expect(throws: Never.self) { try grant.authorize(.getBlob) }
        #expect(
            (#expect(throws: AuthorizationError.self) { try grant.authorize(.deleteBlob) })?.code
                == .authorizationPermissionMismatch)
        let elsewhere = #expect(throws: AuthorizationError.self) {
            try Self.authenticator.authenticate(
                head, service: .blob, target: .blob(container: "other", name: "ada.jpg"), now: now)
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
}
