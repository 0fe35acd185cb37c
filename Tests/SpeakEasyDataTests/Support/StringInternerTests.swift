import Testing

@testable import SpeakEasyFormats

@Suite("StringInterner: shared Strings for repeated bytes, never a wrong one")
struct StringInternerTests {
    func intern(_ interner: inout StringInterner, _ text: String, column: Int = 0, made: inout Int) -> String {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw in
            interner.string(raw, column: column) { () throws(Never) in
                made += 1
                return String(decoding: raw, as: UTF8.self)
            }
        }
    }

    @Test("a repeated value is made once; different values, short or long, come back exactly")
    func repeated() {
        var interner = StringInterner()
        var made = 0
        let values = [
            "Windows Phone Meetup", "Milwaukee, WI", "SharePoint Saturdays", String(repeating: "é", count: 40),
            "Windows Phone Meetup",
        ]
        for _ in 0..<3 {
            for value in values { #expect(intern(&interner, value, made: &made) == value) }
        }
        // "Milwaukee, WI" is short enough to live inside its String: made every time.
        #expect(made == 1 + 3 + 1 + 1)
    }

    @Test("a column of unique values is given up, and still answers correctly")
    func unique() {
        var interner = StringInterner()
        var made = 0
        for index in 0..<10_000 {
            let value = "00000000-0000-0000-0000-\(String(index, radix: 16))"
            #expect(intern(&interner, value, column: 2, made: &made) == value)
        }
        #expect(made == 10_000)
        #expect(intern(&interner, "Windows Phone Meetup", column: 0, made: &made) == "Windows Phone Meetup")
    }
}
