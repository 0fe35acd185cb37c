import SpeakEasyData
import TestSupport
import Testing

@Suite("Connection strings and credentials")
struct ConnectionStringTests {
    @Test("UseDevelopmentStorage=true expands to the development account on loopback")
    func development() throws {
        let connection = try ConnectionString("UseDevelopmentStorage=true")
        #expect(try connection.endpoint(.table) == "http://127.0.0.1:10002/devstoreaccount1")
        #expect(try connection.endpoint(.blob) == "http://127.0.0.1:10000/devstoreaccount1")
        guard case .sharedKey(let credentials) = try connection.credential() else {
            Issue.record("expected Shared Key")
            return
        }
        #expect(credentials.accountName == "devstoreaccount1")
        #expect(!connection.description.contains(DevelopmentAccount.key))
    }

    @Test("keys are case-insensitive, split on the first =, endpoints derived from the account or given")
    func production() throws {
        let key = "a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5"
        let connection = try ConnectionString(
            "defaultendpointsprotocol=https;ACCOUNTNAME=speakeasy;AccountKey=\(key);EndpointSuffix=core.windows.net;"
        )
        #expect(try connection.endpoint(.table) == "https://speakeasy.table.core.windows.net")
        #expect(try connection.endpoint(.blob) == "https://speakeasy.blob.core.windows.net")
        #expect(connection["accountkey"] == key)
        #expect(!connection.description.contains(key))
        #expect(connection.description.contains("ACCOUNTNAME=speakeasy;AccountKey=(hidden)"))
        // A ';' or '=' followed by a combining mark is one Character, but still splits the settings,
        // as the SDKs split on code units (a fuzz finding: "AccountKey" was read as part of a value).
        let combining = try ConnectionString("AccountName=a;TableEndpoint=http://x\u{301};AccountKey=\(key)")
        #expect(combining["AccountKey"] == key)
        #expect(combining["TableEndpoint"] == "http://x\u{301}")
        #expect(!combining.description.contains(key))
        let explicit = try ConnectionString(
            "AccountName=a;TableEndpoint=http://localhost:9/a/;BlobEndpoint=https://b.example/"
        )
        #expect(try explicit.endpoint(.table) == "http://localhost:9/a")
        #expect(try explicit.endpoint(.blob) == "https://b.example")
    }

    @Test("a SharedAccessSignature loses its leading ? and its sig is hidden when printed")
    func sas() throws {
        let connection = try ConnectionString(
            "BlobEndpoint=https://x.blob.core.windows.net/;SharedAccessSignature=?sv=2019-02-02&ss=b&sig=SECRET%3D"
        )
        guard case .sharedAccessSignature(let token) = try connection.credential() else {
            Issue.record("expected a SAS")
            return
        }
        #expect(token == "sv=2019-02-02&ss=b&sig=SECRET%3D")
        #expect(!connection.description.contains("SECRET"))
    }

    @Test("errors name the setting at fault and never print the key")
    func errors() throws {
        #expect(
            (#expect(throws: ConnectionString.ParseError.self) { try ConnectionString("AccountName=a;junk") })?.setting
                == "setting 2"
        )
        #expect(
            (#expect(throws: ConnectionString.ParseError.self) { try ConnectionString("UseDevelopmentStorage=yes") })?
                .setting == "UseDevelopmentStorage"
        )
        #expect(
            (#expect(throws: ConnectionString.ParseError.self) { try ConnectionString("DefaultEndpointsProtocol=ftp") })?
                .setting == "DefaultEndpointsProtocol"
        )
        #expect((#expect(throws: ConnectionString.ParseError.self) { try ConnectionString("=x") }) != nil)
        let badKey = try ConnectionString("AccountName=a;AccountKey=not*base64")
        let error = #expect(throws: ConnectionString.ParseError.self) { try badKey.credential() }
        #expect(error?.setting == "AccountKey")
        #expect(error?.description.contains("not*base64") == false)
        #expect(
            (#expect(throws: ConnectionString.ParseError.self) { try ConnectionString("AccountKey=a").endpoint(.table) })?
                .setting == "TableEndpoint"
        )
    }

    @Test("a malformed connection string names the setting at fault and no piece of the secret")
    func malformedHidesTheSecret() {
        for (form, text, setting) in MalformedConnectionStrings.all {
            let error = #expect(throws: ConnectionString.ParseError.self, "\(form)") {
                let parsed = try ConnectionString(text)
                _ = try parsed.credential()
            }
            #expect(error?.setting == setting, "\(form)")
            #expect(
                error.map { !MalformedConnectionStrings.leaks($0.description) } == true,
                "\(form): \(error?.description ?? "")"
            )
        }
        let typo = #expect(throws: ConnectionString.ParseError.self) { try ConnectionString("AcountKey=abc") }
        #expect(typo?.description.contains("did you mean AccountKey?") == true)
    }

    @Test("credentials: a bad key is a clear error; the description hides the key")
    func credentials() {
        for key in ["", "abc", "not base64!", "YQ", String(repeating: "@", count: 100_000)] {
            let error = #expect(throws: StorageCredentials.KeyError.self) {
                try StorageCredentials(accountName: "acct", key: key)
            }
            #expect(error?.description.hasPrefix("the key of account 'acct'") == true)
            #expect((error?.description.count ?? .max) < 200)
        }
        #expect(StorageCredentials.development.description == "account 'devstoreaccount1' (key hidden)")
    }
}
