@testable import SpeakEasyServer
import SpeakEasyData
import TestFixtures
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
    }

    @Test("dot segments, malformed escapes and invalid UTF-8 are 400 InvalidUri", arguments: [
        "/devstoreaccount1/photos/../secret", "/devstoreaccount1/./photos", "/devstoreaccount1/photos/%zz", "/devstoreaccount1/photos/%C3", "no-slash",
    ])
    func refused(path: String) {
        #expect(throws: StorageError.self) { try ResourcePath(path) }
        #expect((try? ResourcePath(path)) == nil)
        do { _ = try ResourcePath(path) } catch { #expect(error.azureCode == "InvalidUri") }
    }
}
