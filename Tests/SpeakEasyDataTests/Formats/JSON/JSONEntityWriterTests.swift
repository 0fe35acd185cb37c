import SpeakEasyData
import TestSupport
import Testing

@Suite("JSON entity writer output")
struct JSONEntityWriterTests {
    static func text(_ properties: [Property], metadata: JSONMetadata = .minimal) -> String {
        var out = [UInt8]()
        JSONEntityWriter.appendPropertiesObject(properties, metadata: metadata, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @Test("annotations appear exactly where JSON would lose the type, before the value")
    func annotations() {
        let json = Self.text([
            Property("S", .string("x")), Property("I", .int32(-7)), Property("L", .int64(1_099_511_627_776)),
            Property("D", .double(10)), Property("N", .double(.nan)), Property("B", .boolean(true)),
            Property("T", .dateTime(.at("2012-11-10T03:04:05.2Z"))),
            Property("G", .guid(.literal("C9DA6455-213D-42C9-9A79-3E9149A57833"))),
            Property("X", .binary([0x00, 0x01, 0x68, 0x69])),
        ])
        #expect(
            json
                == #"{"S":"x","I":-7,"L@odata.type":"Edm.Int64","L":"1099511627776","D":10.0,"N@odata.type":"Edm.Double","N":"NaN","B":true,"#
                + #""T@odata.type":"Edm.DateTime","T":"2012-11-10T03:04:05.2000000Z","G@odata.type":"Edm.Guid","G":"c9da6455-213d-42c9-9a79-3e9149a57833","#
                + #""X@odata.type":"Edm.Binary","X":"AAFoaQ=="}"#
        )
    }

    @Test("nometadata writes no annotations")
    func noMetadata() {
        #expect(
            Self.text([Property("L", .int64(5)), Property("N", .double(-.infinity))], metadata: .none)
                == #"{"L":"5","N":"-Infinity"}"#
        )
    }

    @Test("needsAnnotation follows Azure's minimal metadata")
    func needsAnnotation() {
        #expect(!JSONEntityWriter.needsAnnotation(.string("x")))
        #expect(!JSONEntityWriter.needsAnnotation(.int32(1)))
        #expect(!JSONEntityWriter.needsAnnotation(.boolean(true)))
        #expect(!JSONEntityWriter.needsAnnotation(.double(1.5)))
        #expect(JSONEntityWriter.needsAnnotation(.double(.infinity)))
        #expect(JSONEntityWriter.needsAnnotation(.double(.nan)))
        #expect(JSONEntityWriter.needsAnnotation(.int64(1)))
        #expect(JSONEntityWriter.needsAnnotation(.dateTime(.min)))
        #expect(JSONEntityWriter.needsAnnotation(.guid(EdmGuid(high: 0, low: 0))))
        #expect(JSONEntityWriter.needsAnnotation(.binary([])))
    }

    @Test(
        "string escapes",
        arguments: [
            ("a\"b", #""a\"b""#), ("a\\b", #""a\\b""#), ("\n\r\t", #""\n\r\t""#), ("\u{00}", #""\u0000""#),
            ("\u{1F}", #""\u001f""#), ("\u{08}\u{0C}", #""\u0008\u000c""#), ("\u{7F}", "\"\u{7F}\""), ("é😀", "\"é😀\""),
            ("/", #""/""#),
        ]
    )
    func escapes(text: String, json: String) {
        var out = [UInt8]()
        JSONEntityWriter.appendString(text, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == json)
    }

    @Test("finite doubles are JSON numbers that keep a fraction or an exponent")
    func doubleNumbers() {
        #expect(Self.text([Property("D", .double(10))]) == #"{"D":10.0}"#)
        #expect(Self.text([Property("D", .double(-0.0))]) == #"{"D":-0.0}"#)
        #expect(Self.text([Property("D", .double(.leastNonzeroMagnitude))]) == #"{"D":5e-324}"#)
        #expect(Self.text([Property("D", .double(.greatestFiniteMagnitude))]) == #"{"D":1.7976931348623157e+308}"#)
    }

    @Test(
        "a character needing an escape is found at every offset, also next to multi-byte characters",
        arguments: ["\"", "\\", "\n", "\u{00}", "\u{1F}"]
    )
    func escapeAtEveryOffset(special: String) throws {
        let escaped = String(Self.text([Property("S", .string(special))]).dropFirst(6).dropLast(2))
        for filler in ["a", "é", "\u{7F}", "😀"] {
            for length in 0..<24 {
                for position in 0...length {
                    var characters = Array(repeating: filler, count: length)
                    characters.insert(special, at: position)
                    let text = characters.joined()
                    var out = [UInt8]()
                    JSONEntityWriter.appendString(text, to: &out)
                    let expected =
                        "\"" + Array(repeating: filler, count: position).joined() + escaped
                        + Array(repeating: filler, count: length - position).joined() + "\""
                    #expect(String(decoding: out, as: UTF8.self) == expected, "\(length) \(position) \(filler)")
                    #expect(
                        try JSONEntityReader.properties(fromObject: Array("{\"S\":".utf8) + out + [UInt8(ascii: "}")])
                            == [Property("S", .string(text))]
                    )
                }
            }
        }
    }

    @Test("bytes that only look special in a word (0x80 and above, 0x20, '!', '#', '[', ']') are not escaped")
    func nothingToEscape() {
        let text = String(repeating: " !#[]~\u{7F}é€😀", count: 9)
        var out = [UInt8]()
        JSONEntityWriter.appendString(text, to: &out)
        #expect(out == [UInt8(ascii: "\"")] + Array(text.utf8) + [UInt8(ascii: "\"")])
    }
}
