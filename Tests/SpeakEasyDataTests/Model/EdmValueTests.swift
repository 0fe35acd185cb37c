import SpeakEasyData
import TestSupport
import Testing

@Suite("EdmValue lexical forms and equality")
struct EdmValueTests {
    static let values: [EdmValue] =
        SampleProperties.everyType.map(\.value) + [
            .string("  leading and trailing  "), .int32(0), .int32(-1), .int64(0), .int64(-1),
            .double(0.0), .double(-1.5), .double(123456789012345.12), .double(1e-7), .double(1e21),
            .dateTime(.at("2024-02-29T23:59:59.9999999Z")),
            .guid(EdmGuid(high: 0, low: 0)),
        ]

    @Test("every value survives its lexical form with type and exact value", arguments: values)
    func lexicalRoundTrip(value: EdmValue) throws {
        let text = value.description
        let parsed = try #require(EdmValue(lexical: text, as: value.type), "\(text)")
        #expect(parsed == value)
        #expect(parsed.type == value.type)
    }

    @Test(
        "Double lexical forms",
        arguments: [
            (Double.nan, "NaN"),
            (Double.infinity, "Infinity"),
            (-Double.infinity, "-Infinity"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (10.0, "10.0"),
            (Double.leastNonzeroMagnitude, "5e-324"),
            (Double.greatestFiniteMagnitude, "1.7976931348623157e+308"),
        ]
    )
    func doubleLexical(value: Double, text: String) throws {
        #expect(EdmValue.lexical(value) == text)
        let parsed = try #require(EdmValue.parseDouble(text))
        #expect(parsed.bitPattern == value.bitPattern || (parsed.isNaN && value.isNaN))
    }

    @Test(
        "Double parsing accepts every SDK spelling",
        arguments: [
            ("NaN", Double.nan),
            // Python's str(), as azure-storage writes
            ("nan", Double.nan), ("inf", Double.infinity), ("-inf", -Double.infinity),
            ("INF", Double.infinity),
            ("Infinity", Double.infinity),
            ("-INF", -Double.infinity),
            ("-Infinity", -Double.infinity),
            ("4.94065645841247E-324", Double.leastNonzeroMagnitude),
            ("1.7976931348623157E+308", Double.greatestFiniteMagnitude),
            ("10.0", 10.0),
            ("10", 10.0),
            ("-0.0", -0.0),
            ("+1.5", 1.5),
            (".5", 0.5),
            ("123456789012345.12", 123456789012345.12),
        ]
    )
    func doubleSpellings(text: String, expected: Double) throws {
        let parsed = try #require(EdmValue.parseDouble(text))
        #expect(EdmValue.double(parsed) == EdmValue.double(expected))
    }

    @Test(
        "Double parsing rejects what is not an Edm.Double",
        arguments: ["", "NAN", "Inf", "infinity", "+inf", "0x1p3", "abc", "1.5.5", " 1", "1,5", "e5"]
    )
    func doubleRejects(text: String) {
        #expect(EdmValue.parseDouble(text) == nil)
        #expect(EdmValue(lexical: text, as: .double) == nil)
    }

    @Test("doubles are equal by bit pattern: NaN equals NaN, -0.0 differs from 0.0")
    func doubleEquality() {
        #expect(EdmValue.double(.nan) == .double(.nan))
        #expect(EdmValue.double(-0.0) != .double(0.0))
        #expect(EdmValue.double(1.0) == .double(1.0))
        #expect(Set([EdmValue.double(.nan), .double(.nan), .double(0.0), .double(-0.0)]).count == 3)
    }

    @Test("values of different types are never equal")
    func typeMatters() {
        #expect(EdmValue.int32(1) != .int64(1))
        #expect(EdmValue.int64(1) != .double(1))
        #expect(EdmValue.string("1") != .int32(1))
        #expect(EdmValue.string("true") != .boolean(true))
        #expect(EdmValue.binary([]) != .string(""))
    }

    @Test("integer lexical forms respect their width")
    func integerWidths() {
        #expect(EdmValue(lexical: "2147483647", as: .int32) == .int32(.max))
        #expect(EdmValue(lexical: "-2147483648", as: .int32) == .int32(.min))
        #expect(EdmValue(lexical: "2147483648", as: .int32) == nil)
        #expect(EdmValue(lexical: "2147483648", as: .int64) == .int64(2_147_483_648))
        #expect(EdmValue(lexical: "9223372036854775807", as: .int64) == .int64(.max))
        #expect(EdmValue(lexical: "-9223372036854775808", as: .int64) == .int64(.min))
        #expect(EdmValue(lexical: "9223372036854775808", as: .int64) == nil)
        #expect(EdmValue(lexical: "1.0", as: .int32) == nil)
        #expect(EdmValue(lexical: "", as: .int64) == nil)
    }

    @Test(
        "Boolean spellings",
        arguments: [
            ("true", true), ("True", true), ("TRUE", true), ("false", false), ("False", false), ("FALSE", false),
        ]
    )
    func booleanSpellings(text: String, value: Bool) {
        #expect(EdmValue(lexical: text, as: .boolean) == .boolean(value))
    }

    @Test("Boolean rejects other words", arguments: ["1", "0", "yes", "tRuE", ""])
    func booleanRejects(text: String) {
        #expect(EdmValue(lexical: text, as: .boolean) == nil)
    }

    @Test("Guid, DateTime and Binary lexical forms are validated")
    func validatedTypes() {
        #expect(EdmValue(lexical: "not-a-guid", as: .guid) == nil)
        #expect(EdmValue(lexical: "2023-02-29T00:00:00Z", as: .dateTime) == nil)
        #expect(EdmValue(lexical: "Zg=", as: .binary) == nil)
        #expect(
            EdmValue(lexical: "C9DA6455-213D-42C9-9A79-3E9149A57833", as: .guid)?.description
                == "c9da6455-213d-42c9-9a79-3e9149a57833"
        )
        #expect(
            EdmValue(lexical: "2012-11-10T03:04:05.2Z", as: .dateTime)?.description == "2012-11-10T03:04:05.2000000Z"
        )
        #expect(EdmValue(lexical: "anything at all", as: .string) == .string("anything at all"))
    }

    @Test("type names read with and without the Edm. prefix")
    func typeNames() {
        for type in EdmType.allCases {
            #expect(EdmType(name: type.rawValue) == type)
            #expect(EdmType(name: type.shortName) == type)
            #expect("Edm." + type.shortName == type.rawValue)
        }
        #expect(EdmType(name: "Edm.Decimal") == nil)
        #expect(EdmType(name: "int64") == nil)
        #expect(EdmType(name: "") == nil)
    }
}
