import SpeakEasyData
import Testing

@Suite("BlobURL")
struct BlobURLTests {
    @Test(
        "both URL forms parse to account, container and blob",
        arguments: [
            (
                "https://speakeasy.blob.core.windows.net/speakers/BTubalinal.jpg", "speakeasy", "speakers",
                "BTubalinal.jpg"
            ),
            (
                "http://127.0.0.1:10000/devstoreaccount1/speakers/BTubalinal.jpg", "devstoreaccount1", "speakers",
                "BTubalinal.jpg"
            ),
            ("http://localhost:10000/speakeasy/speakers/photos/a%20b.png", "speakeasy", "speakers", "photos/a b.png"),
            ("https://acct.blob.core.windows.net/c/M%C3%BCller%2B1.png", "acct", "c", "Müller+1.png"),
        ]
    )
    func parse(url: String, account: String, container: String, blob: String) {
        #expect(BlobURL(url) == BlobURL(account: account, container: container, blob: blob))
    }

    @Test(
        "what is not a blob URL is refused",
        arguments: [
            "", "ftp://acct.blob.core.windows.net/c/b", "https://acct.blob.core.windows.net/c",
            "https://acct.blob.core.windows.net/c/",
            "http://127.0.0.1:10000/acct/c", "https://acct.blob.core.windows.net/c/%zz",
            "https://acct.blob.core.windows.net/c/a%4",
            "https://acct.blob.core.windows.net",
        ]
    )
    func refuse(url: String) {
        #expect(BlobURL(url) == nil)
    }

    @Test("escaping keeps unreserved characters and '/', percent-encodes the rest as UTF-8")
    func escape() {
        #expect(BlobURL.escape("AZaz09-._~/x") == "AZaz09-._~/x")
        #expect(BlobURL.escape("a b+c%d?e#f") == "a%20b%2Bc%25d%3Fe%23f")
        #expect(BlobURL.escape("Zoë 😀") == "Zo%C3%AB%20%F0%9F%98%80")
    }

    @Test(
        "escaped names parse back to the original",
        arguments: ["BTubalinal.jpg", "a b+c%d?e#f", "dir/Zoë 😀.png", "100%"]
    )
    func roundTrip(name: String) {
        let url = "https://acct.blob.core.windows.net/speakers/" + BlobURL.escape(name)
        #expect(BlobURL(url)?.blob == name)
    }
}
