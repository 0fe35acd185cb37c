import Foundation
import SpeakEasyData
import TestSupport
import Testing

@Suite("JSON entity reader: annotations and type inference")
struct JSONEntityReaderTests {
    static func read(_ json: String) throws -> [Property] {
        try JSONEntityReader.properties(fromObject: Array(json.utf8))
    }

    @Test(
        "an annotation may come before or after its value",
        arguments: [
            #"{"F@odata.type":"Edm.Int64","F":"1099511627776"}"#,
            #"{"F":"1099511627776","F@odata.type":"Edm.Int64"}"#,
            #"{ "F" : "1099511627776" , "Other" : 1 , "F@odata.type" : "Edm.Int64" }"#,
        ]
    )
    func annotationOrder(json: String) throws {
        let properties = try Self.read(json)
        #expect(properties.first == Property("F", .int64(1_099_511_627_776)))
        #expect(!properties.contains { $0.name.contains("@") })
    }

    @Test("the bare type name (Int64) is accepted in an annotation, as Storage Explorer writes it")
    func shortTypeName() throws {
        #expect(try Self.read(#"{"F@odata.type":"Int64","F":"5"}"#) == [Property("F", .int64(5))])
    }

    @Test("OData v3 entity metadata (odata.*) is skipped")
    func odataV3Skipped() throws {
        let json = #"""
            {"odata.metadata":"https://x.table.core.windows.net/$metadata#t/@Element","odata.type":"x.t","odata.id":"https://x/t(PartitionKey='p')",
             "odata.etag":"W/\"datetime'2017-01-05T03%3A27%3A08.7040706Z'\"","odata.editLink":"t(PartitionKey='p')","Name":"Ada"}
            """#
        #expect(try Self.read(json) == [Property("Name", .string("Ada"))])
    }

    /// Readers accept OData v4 spellings leniently (the Formats article's table):
    /// `@odata.context`, `@odata.etag`, an entity-level `@odata.type`.
    @Test("OData v4 entity metadata (@odata.*) is skipped")
    func odataV4Skipped() throws {
        let json =
            ##"{"@odata.context":"https://x/$metadata#t/$entity","@odata.etag":"W/\"1\"","@odata.type":"#x.t","Name":"Ada"}"##
        #expect(try Self.read(json) == [Property("Name", .string("Ada"))])
    }

    /// `Prop@odata.type: "#Int64"` is the OData v4 spelling, accepted on import (the Formats article's table).
    @Test("OData v4 type names (#Int64) are accepted in annotations")
    func odataV4TypeNames() throws {
        let json =
            ##"{"F@odata.type":"#Int64","F":"9223372036854775807","G@odata.type":"#Guid","G":"c9da6455-213d-42c9-9a79-3e9149a57833"}"##
        #expect(
            try Self.read(json) == [
                Property("F", .int64(.max)), Property("G", .guid(.literal("c9da6455-213d-42c9-9a79-3e9149a57833"))),
            ]
        )
    }

    @Test("null means the property is absent, with or without an annotation")
    func nullIsAbsent() throws {
        #expect(try Self.read(#"{"A":null,"B":1,"C@odata.type":"Edm.Int64","C":null}"#) == [Property("B", .int32(1))])
    }

    @Test(
        "unannotated values take Azure's inferred types",
        arguments: [
            ("\"text\"", EdmValue.string("text")),
            ("true", .boolean(true)),
            ("false", .boolean(false)),
            ("0", .int32(0)),
            ("-0", .int32(0)),
            ("2147483647", .int32(.max)),
            ("-2147483648", .int32(.min)),
            ("2147483648", .int64(2_147_483_648)),
            ("-2147483649", .int64(-2_147_483_649)),
            ("9223372036854775807", .int64(.max)),
            ("-9223372036854775808", .int64(.min)),
            ("10.0", .double(10.0)),
            ("1e3", .double(1000)),
            ("1E+3", .double(1000)),
            ("-0.0", .double(-0.0)),
            ("4.94065645841247E-324", .double(.leastNonzeroMagnitude)),
            ("1.7976931348623157E+308", .double(.greatestFiniteMagnitude)),
            ("\"2012-11-10T03:04:05Z\"", .string("2012-11-10T03:04:05Z")),
        ]
    )
    func inference(literal: String, expected: EdmValue) throws {
        let properties = try Self.read("{\"V\":\(literal)}")
        #expect(properties == [Property("V", expected)])
    }

    @Test(
        "annotated values are read as the annotation says",
        arguments: [
            ("Edm.Double", "5", EdmValue.double(5)),
            ("Edm.Double", "\"NaN\"", .double(.nan)),
            ("Edm.Double", "\"INF\"", .double(.infinity)),
            ("Edm.Double", "\"-Infinity\"", .double(-.infinity)),
            ("Edm.Int64", "5", .int64(5)),
            ("Edm.Int64", "\"-9223372036854775808\"", .int64(.min)),
            ("Edm.Int32", "5", .int32(5)),
            ("Edm.Boolean", "true", .boolean(true)),
            ("Edm.String", "\"10\"", .string("10")),
            ("Edm.DateTime", "\"2012-11-10T03:04:05.2Z\"", .dateTime(.at("2012-11-10T03:04:05.2Z"))),
            (
                "Edm.Guid", "\"DD3CB8F8-93B7-44E2-B74A-C0AA3B27A6D2\"",
                .guid(.literal("dd3cb8f8-93b7-44e2-b74a-c0aa3b27a6d2"))
            ),
            ("Edm.Binary", "\"U2FtcGxlU3RyaW5nSW5CdWZmZXIh\"", .binary(Array("SampleStringInBuffer!".utf8))),
        ]
    )
    func annotated(type: String, literal: String, expected: EdmValue) throws {
        let properties = try Self.read("{\"V@odata.type\":\"\(type)\",\"V\":\(literal)}")
        #expect(properties == [Property("V", expected)])
    }

    @Test("properties keep their order")
    func order() throws {
        let properties = try Self.read(#"{"Z":1,"A":2,"M":3}"#)
        #expect(properties.map(\.name) == ["Z", "A", "M"])
    }

    @Test("escaped surrogate pairs decode to one scalar outside the BMP")
    func surrogatePairs() throws {
        #expect(try Self.read(#"{"S":"\ud83d\ude00 \u00e9\u0041\/"}"#) == [Property("S", .string("😀 éA/"))])
    }

    /// Strings with escapes are decoded a few KB at a time; every escape, and every non-ASCII letter,
    /// must come out the same wherever the pieces end. Foundation's JSON parser judges.
    @Test("long strings with escapes decode as Foundation decodes them", arguments: [1, 4000, 4090, 9000, 20_000])
    func longEscapedStrings(length: Int) throws {
        var random = SystemRandomNumberGenerator()
        let pieces = [#"\""#, #"\\"#, #"\n"#, #"\t"#, #"\/"#, #"\u00e9"#, #"\ud83d\ude00"#, "é", "日本語", "plain ", "x"]
        var body = ""
        while body.utf8.count < length { body += pieces.randomElement(using: &random)! }
        let json = #"{"S":""# + body + #""}"#
        let judged = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(try Self.read(json) == [Property("S", .string(try #require(judged?["S"])))])
        // A broken byte among the escapes is refused, wherever it falls.
        var broken = Array(json.utf8)
        broken[broken.count / 2] = 0xFF
        #expect(throws: (any Error).self) { try JSONEntityReader.properties(fromObject: broken) }
    }

    @Test("whitespace of every JSON kind is allowed between tokens")
    func whitespace() throws {
        #expect(
            try Self.read(" \t\r\n{ \"A\" :\n\t1 ,\r\n\"B\":true }\n ") == [
                Property("A", .int32(1)), Property("B", .boolean(true)),
            ]
        )
    }
}
