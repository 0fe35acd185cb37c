@testable import SpeakEasyServer
import SpeakEasyData
import TestSupport
import TestServer
import Testing

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

    @Test("dot segments, malformed escapes and invalid UTF-8 are 400 InvalidUri", arguments: [
        "/devstoreaccount1/photos/../secret", "/devstoreaccount1/./photos", "/devstoreaccount1/photos/%zz", "/devstoreaccount1/photos/%C3", "no-slash",
        "/devstoreaccount1/photos/%2E%2E/secret", "/devstoreaccount1/photos/a/./b",
    ])
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
            #expect(identifier.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil, "\(identifier)")
        }
    }
}
