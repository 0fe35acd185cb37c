import SpeakEasyData
import Testing

/// Malformed input is reported with the line and column where it was found.
@Suite("JSON entity reader: errors with line and column")
struct JSONSyntaxErrorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var line: Int
        /// Columns at or just after the offending token (1-based, in bytes).
        var columns: ClosedRange<Int>
        var reason: String

        init(_ name: String, _ text: String, line: Int = 1, columns: ClosedRange<Int>, reason: String) {
            self.init(name, Array(text.utf8), line: line, columns: columns, reason: reason)
        }

        init(_ name: String, _ bytes: [UInt8], line: Int = 1, columns: ClosedRange<Int>, reason: String) {
            self.name = name
            self.bytes = bytes
            self.line = line
            self.columns = columns
            self.reason = reason
        }

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case("truncated after a value", #"{"a":1"#, columns: 7...7, reason: "end of input"),
        Case("truncated inside a string", #"{"a":"abc"#, columns: 10...10, reason: "unterminated"),
        Case("truncated after a key", #"{"a""#, columns: 5...5, reason: "end of input"),
        Case("empty input", "", columns: 1...1, reason: "end of input"),
        Case("bad escape", #"{"a":"x\q"}"#, columns: 8...10, reason: "escape"),
        Case("lone high surrogate", #"{"a":"\ud800"}"#, columns: 7...13, reason: "surrogate"),
        Case("lone low surrogate", #"{"a":"\udc00"}"#, columns: 7...13, reason: "surrogate"),
        Case("bad \\u digits", #"{"a":"\u12g4"}"#, columns: 7...12, reason: "\\u"),
        Case(
            "invalid UTF-8",
            [UInt8](#"{"a":""#.utf8) + [0xC3, 0x28] + [UInt8](#""}"#.utf8),
            columns: 6...10,
            reason: "UTF-8"
        ),
        Case(
            "invalid UTF-8 (lone continuation byte)",
            [UInt8](#"{"a":"x"#.utf8) + [0x80] + [UInt8](#""}"#.utf8),
            columns: 6...10,
            reason: "UTF-8"
        ),
        Case("leading zeros", #"{"a":01}"#, columns: 6...8, reason: "leading zeros"),
        Case("negative leading zeros", #"{"a":-01}"#, columns: 6...9, reason: "leading zeros"),
        Case("leading zeros on line 2", "{\n  \"count\": 007\n}", line: 2, columns: 12...15, reason: "leading zeros"),
        Case("fraction without digits", #"{"a":1.}"#, columns: 6...8, reason: "digits"),
        Case("exponent without digits", #"{"a":1e}"#, columns: 6...8, reason: "exponent"),
        Case("a bare minus", #"{"a":-}"#, columns: 6...7, reason: "digits"),
        Case("raw control character in a string", "{\"a\":\"x\ty\"}", columns: 6...9, reason: "control character"),
        Case(
            "raw newline in a string, line counted before it",
            "{\n\"a\":\"x\ny\"}",
            line: 2,
            columns: 5...8,
            reason: "control character"
        ),
        Case("misspelt literal", #"{"a":tru}"#, columns: 6...9, reason: "literal"),
        Case("unquoted key", #"{a:1}"#, columns: 2...2, reason: "property name"),
        Case("trailing comma", #"{"a":1,}"#, columns: 8...8, reason: "property name"),
        Case("missing colon", #"{"a" 1}"#, columns: 6...6, reason: "':'"),
        Case("content after the object", #"{"a":1} x"#, columns: 9...9, reason: "after the object"),
        Case("nested object", #"{"a":{}}"#, columns: 6...6, reason: "nested"),
        Case("nested array", #"{"a":[1]}"#, columns: 6...6, reason: "nested"),
        Case("not an object", #"[1]"#, columns: 1...1, reason: "'{'"),
    ]

    @Test("malformed JSON is located", arguments: cases)
    func located(_ testCase: Case) {
        let error = #expect(throws: JSONSyntaxError.self) {
            try JSONEntityReader.properties(fromObject: testCase.bytes)
        }
        guard let error else { return }
        #expect(error.line == testCase.line, "\(error)")
        #expect(testCase.columns.contains(error.column), "\(error)")
        #expect(error.reason.contains(testCase.reason), "\(error)")
        #expect(error.description.hasPrefix("line \(error.line), column \(error.column): "))
    }

    @Test(
        "a value that does not fit its annotation names the property and the type",
        arguments: [
            (#"{"n@odata.type":"Edm.Int32","n":"abc"}"#, "n", "Edm.Int32"),
            (#"{"n@odata.type":"Edm.Int32","n":2147483648}"#, "n", "Edm.Int32"),
            (#"{"n@odata.type":"Edm.Int32","n":1.5}"#, "n", "Edm.Int32"),
            (#"{"n@odata.type":"Edm.Int64","n":"9223372036854775808"}"#, "n", "Edm.Int64"),
            (#"{"d@odata.type":"Edm.DateTime","d":"2023-02-29T00:00:00Z"}"#, "d", "Edm.DateTime"),
            (#"{"d@odata.type":"Edm.DateTime","d":20230228}"#, "d", "Edm.DateTime"),
            (#"{"g@odata.type":"Edm.Guid","g":"not-a-guid"}"#, "g", "Edm.Guid"),
            (#"{"b@odata.type":"Edm.Binary","b":"Zg="}"#, "b", "Edm.Binary"),
            (#"{"x@odata.type":"Edm.Double","x":"NAN"}"#, "x", "Edm.Double"),
            (#"{"x@odata.type":"Edm.Boolean","x":1}"#, "x", "Edm.Boolean"),
            (#"{"x@odata.type":"Edm.String","x":1}"#, "x", "Edm.String"),
        ]
    )
    func valueDoesNotFit(json: String, property: String, type: String) {
        let error = #expect(throws: JSONSyntaxError.self) {
            try JSONEntityReader.properties(fromObject: Array(json.utf8))
        }
        #expect(error?.line == 1)
        #expect(error?.reason.contains(property) == true, "\(String(describing: error))")
        #expect(error?.reason.contains(type) == true, "\(String(describing: error))")
    }

    @Test(
        "an annotation that names no Edm type is an error",
        arguments: [#"{"n@odata.type":"Edm.Decimal","n":"1"}"#, #"{"n@odata.type":5,"n":"1"}"#]
    )
    func unknownType(json: String) {
        let error = #expect(throws: JSONSyntaxError.self) {
            try JSONEntityReader.properties(fromObject: Array(json.utf8))
        }
        #expect(error?.reason.contains("n@odata.type") == true)
    }

    /// `JSONSyntaxError` promises "where it was found". In a pretty-printed entity the value on line 3
    /// is the problem, not the closing brace on line 5.
    @Test("a value that does not fit its annotation is located at the value, not at the end of the object")
    func valueDoesNotFitIsLocated() {
        let json = """
            {
              "n@odata.type": "Edm.Int32",
              "n": "abc",
              "other": 1
            }
            """
        let error = #expect(throws: JSONSyntaxError.self) {
            try JSONEntityReader.properties(fromObject: Array(json.utf8))
        }
        #expect(error?.line == 3, "\(String(describing: error))")
        #expect((8...13).contains(error?.column ?? 0), "\(String(describing: error))")
    }

    /// An entity cannot hold two properties of one name (Azure answers 400, ODataLib "Multiple
    /// properties with the name … were detected"); reading one must not yield a duplicate property.
    @Test(
        "a property named twice is malformed",
        arguments: [#"{"a":1,"a":2}"#, #"{"a@odata.type":"Edm.Int64","a":"1","b":true,"a":"2"}"#]
    )
    func duplicateProperty(json: String) {
        let error = #expect(throws: JSONSyntaxError.self) {
            try JSONEntityReader.properties(fromObject: Array(json.utf8))
        }
        #expect(error?.reason.contains("a") == true)
    }
}
