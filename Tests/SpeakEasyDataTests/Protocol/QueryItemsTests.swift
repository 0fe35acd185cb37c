import SpeakEasyData
import Testing

@Suite("Query items and percent-encoding")
struct QueryItemsTests {
    @Test("decodes names and values, keeps + as +, looks names up ignoring case")
    func decoding() throws {
        let query = try QueryItems(query: "Comp=list&prefix=speakers%2Fa+b&sig=ab%2Bc%3D&flag&&empty=&x=1=2")
        #expect(query["comp"] == "list")
        #expect(query["PREFIX"] == "speakers/a+b")
        #expect(query["sig"] == "ab+c=")
        #expect(query["flag"] == "")
        #expect(query["empty"] == "")
        #expect(query["x"] == "1=2")
        #expect(query["missing"] == nil)
        #expect(query.items.count == 6)
        #expect(try QueryItems(query: "a=1&A=2").values("a") == ["1", "2"])
        #expect(try QueryItems(query: "").items.isEmpty)
        #expect(try QueryItems(query: "name=%C3%A9t%C3%A9")["name"] == "été")
    }

    @Test(
        "a malformed escape or bytes that are not UTF-8 are a clear error",
        arguments: ["a=%", "a=%4", "a=%zz", "a=%FF", "a=%C3", "%ZZ=1"]
    )
    func malformed(_ query: String) {
        let error = #expect(throws: QueryItems.DecodingError.self) { try QueryItems(query: query) }
        #expect(error?.description.contains("malformed percent-escape or is not UTF-8") == true)
    }

    @Test("a huge parameter is cut short in the error")
    func huge() {
        let error = #expect(throws: QueryItems.DecodingError.self) {
            try QueryItems(query: "a=" + String(repeating: "b", count: 1_000_000) + "%")
        }
        #expect((error?.description.count ?? .max) < 300)
    }

    @Test("encodes as Python's urllib.parse.quote")
    func encoding() {
        #expect(PercentEncoding.encodePath("2024-05-01T00:00:00Z") == "2024-05-01T00%3A00%3A00Z")
        #expect(PercentEncoding.encodePath("https,http") == "https%2Chttp")
        #expect(PercentEncoding.encodePath("ab/c+d=") == "ab/c%2Bd%3D")
        #expect(PercentEncoding.encodePath("a b~é") == "a%20b~%C3%A9")
        #expect(PercentEncoding.decode(PercentEncoding.encodePath("ü/+ %")) == "ü/+ %")
    }

    @Test("names compare ignoring the case of ASCII letters only")
    func asciiCase() {
        #expect("x-ms-Version".equalsIgnoringASCIICase("X-MS-VERSION"))
        #expect(!"x-ms-version".equalsIgnoringASCIICase("x-ms-versio"))
        #expect(!"a@".equalsIgnoringASCIICase("a`"))  // 0x40 and 0x60 differ only in the case bit
        #expect(!"[".equalsIgnoringASCIICase("{"))
        #expect("été".equalsIgnoringASCIICase("été"))
        #expect(!"été".equalsIgnoringASCIICase("ÉTÉ"))
        #expect(!"\u{212A}".equalsIgnoringASCIICase("k"))  // the Kelvin sign lower-cases to k in Unicode, not in HTTP
    }

    @Test(
        "decodes from a string, a substring and bridged text alike",
        arguments: ["a%2Fb", "plain", "%C3%A9", "%", "%G0"]
    )
    func decodeForms(_ text: String) {
        let expected = PercentEncoding.decode(text)
        #expect(PercentEncoding.decode(Substring("x" + text).dropFirst()) == expected)
        #expect(PercentEncoding.decode(text + "%41") == expected.map { $0 + "A" })
    }
}
