import SpeakEasyData
import TestServer
import TestSupport
import Testing

@testable import SpeakEasyServer

@Suite("serve: request paths")
struct ResourcePathTests {
    @Test("a path gives the account, the container or table, and the rest, decoded")
    func parts() throws {
        let path = try ResourcePath("/devstoreaccount1/photos/speakers/Zoe%20M%C3%BCller.png")
        #expect(path.account == "devstoreaccount1")
        #expect(path.first == "photos")
        #expect(path.rest == "speakers/Zoe Müller.png")
        let account = try ResourcePath("/devstoreaccount1/")
        #expect(account.first == nil && account.rest == nil)
        let bare = try ResourcePath("/devstoreaccount1")
        #expect(bare.account == "devstoreaccount1" && bare.first == nil && bare.rest == nil)
        let container = try ResourcePath("/devstoreaccount1/photos")
        #expect(container.first == "photos" && container.rest == nil)
        let deep = try ResourcePath("/a/b/c/d/")
        #expect(deep.first == "b" && deep.rest == "c/d/")
        #expect(try ResourcePath("/a//x").first == nil)
    }

    @Test("production style: the account as the host's first label, when the path names no account")
    func productionStyle() throws {
        func head(_ path: String, host: String) -> RequestHead {
            RequestHead(method: "GET", path: path, headers: [(name: "Host", value: host)])
        }
        let accounts = ["devstoreaccount1", "speakeasy"]
        let table = try ResourcePath.resolve(
            head("/events()", host: "speakeasy.table.core.windows.net"),
            accounts: accounts
        )
        #expect(table.account == "speakeasy" && table.first == "events()" && table.rest == nil && table.accountInHost)
        #expect(table.baseURL(host: "speakeasy.table.core.windows.net") == "http://speakeasy.table.core.windows.net")
        let blob = try ResourcePath.resolve(
            head("/speakers/a%20b.jpg", host: "SpeakEasy.blob.localhost:10000"),
            accounts: accounts
        )
        #expect(blob.account == "speakeasy" && blob.first == "speakers" && blob.rest == "a b.jpg")
        let root = try ResourcePath.resolve(head("/", host: "speakeasy.table.core.windows.net"), accounts: accounts)
        #expect(root.account == "speakeasy" && root.first == nil)
        // A path that names an account is read in path style, whatever the host says.
        let pathStyle = try ResourcePath.resolve(
            head("/devstoreaccount1/speakers", host: "speakeasy.blob.core.windows.net"),
            accounts: accounts
        )
        #expect(pathStyle.account == "devstoreaccount1" && pathStyle.first == "speakers" && !pathStyle.accountInHost)
        #expect(pathStyle.baseURL(host: "h:1") == "http://h:1/devstoreaccount1")
        // Neither names one: the path's, to be refused as an unknown account.
        #expect(
            try ResourcePath.resolve(head("/other/x", host: "nobody.table.core.windows.net"), accounts: accounts)
                .account == "other"
        )
        for host in ["127.0.0.1:10002", "localhost:10002", "[::1]:10002", "speakeasy", ".speakeasy.x"] {
            #expect(ResourcePath.hostAccount(host) == nil, "\(host)")
        }
    }

    @Test(
        "dot segments, malformed escapes and invalid UTF-8 are 400 InvalidUri",
        arguments: [
            "/devstoreaccount1/photos/../secret", "/devstoreaccount1/./photos", "/devstoreaccount1/photos/%zz",
            "/devstoreaccount1/photos/%C3", "no-slash",
            "/devstoreaccount1/photos/%2E%2E/secret", "/devstoreaccount1/photos/a/./b",
        ]
    )
    func refused(path: String) {
        #expect(throws: StorageError.self) { try ResourcePath(path) }
        #expect((try? ResourcePath(path)) == nil)
        do { _ = try ResourcePath(path) } catch { #expect(error.azureCode == "InvalidUri") }
    }
}

@Suite("Request identifiers")
struct RequestIdentifierTests {
    @Test("each is a new lower-case version 4 UUID, as Azure's x-ms-request-id")
    func form() throws {
        let identifiers = (0..<1000).map { _ in RequestIdentifier.make() }
        #expect(Set(identifiers).count == identifiers.count)
        for identifier in identifiers {
            #expect(
                identifier.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil,
                "\(identifier)"
            )
        }
    }
}
