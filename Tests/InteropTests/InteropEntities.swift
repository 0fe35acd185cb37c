import SpeakEasyData

/// What we write for the SDKs to read: every Edm type with the extremes that most easily get lost.
enum InteropEntities {
    static func date(_ text: String) -> EdmDateTime {
        do { return try EdmDateTime(parsing: text) } catch { fatalError("bad test date \(text): \(error)") }
    }

    static func guid(_ text: String) -> EdmGuid {
        guard let guid = EdmGuid(text) else { fatalError("bad test GUID \(text)") }
        return guid
    }

    /// 64 KiB of UTF-8 mixing 1- to 4-byte characters, quotes, XML specials and line breaks.
    static let longString: String = {
        let chunk = "aé€😀\"<&>'\n\t"
        var text = ""
        while text.utf8.count + chunk.utf8.count <= 65_536 { text += chunk }
        while text.utf8.count < 65_536 { text += "x" }
        return text
    }()

    static let everyType: [Property] = [
        Property("Text", .string("Ada \"the\" Countess\\of\nLovelace 😀")),
        Property("Empty", .string("")),
        Property("Int32Min", .int32(.min)),
        Property("Int32Max", .int32(.max)),
        Property("Int64Min", .int64(.min)),
        Property("Int64Max", .int64(.max)),
        Property("Int64Small", .int64(1)),
        Property("DoubleNaN", .double(.nan)),
        Property("DoubleInfinity", .double(.infinity)),
        Property("DoubleNegativeInfinity", .double(-.infinity)),
        Property("DoubleNegativeZero", .double(-0.0)),
        Property("DoubleMin", .double(.leastNonzeroMagnitude)),  // 4.94065645841247E-324
        Property("DoubleMax", .double(1.7976931348623157E+308)),
        Property("DoubleTen", .double(10.0)),
        Property("DoubleFraction", .double(0.1)),
        Property("True", .boolean(true)),
        Property("False", .boolean(false)),
        Property("DateTick", .dateTime(date("2012-11-10T03:04:05.0000001Z"))),
        Property("DateSevenDigits", .dateTime(date("2024-05-01T10:00:00.1234567Z"))),
        Property("DateWhole", .dateTime(date("1843-07-01T09:00:00Z"))),
        Property("DateMin", .dateTime(.min)),
        Property("DateMax", .dateTime(.max)),
        Property("Guid", .guid(guid("c9da6455-213d-42c9-9a79-3e9149a57833"))),
        Property("Binary", .binary([0, 1, 2, 0x7F, 0x80, 0xFE, 0xFF])),
        Property("BinaryEmpty", .binary([])),
    ]

    /// Strings every format can carry (XML 1.0 included).
    static let strings: [Property] = [
        Property("Astral", .string("Ada 😀 𝄞 \u{10FFFF}")),
        Property("XMLSpecial", .string("<&>\"' ]]> &amp;")),
        Property("Newlines", .string("one\ntwo\r\nthree\rfour")),
        Property("Padded", .string("  spaced\t ")),
        Property("NumericText", .string("10")),
        Property("DateText", .string("2024-05-01T10:00:00Z")),
        Property("Long", .string(longString)),
    ]

    /// The entities we write for both formats.
    static let common: [Entity] = [
        Entity(
            partitionKey: "Events", rowKey: "it's a \"key\" with spaces", timestamp: date("2026-01-02T03:04:05.1234567Z"),
            etag: "W/\"datetime'2026-01-02T03%3A04%3A05.1234567Z'\"", properties: everyType),
        Entity(
            partitionKey: "speaker's <&> \"place\"", rowKey: "row with spaces 😀", timestamp: date("2026-01-02T03:04:05Z"),
            etag: "W/\"datetime'2026-01-02T03%3A04%3A05Z'\"", properties: strings),
        Entity(partitionKey: "", rowKey: "keys only", timestamp: date("2026-01-02T03:04:05.5Z"), etag: "W/\"datetime'2026-01-02T03%3A04%3A05.5Z'\""),
    ]

    /// JSON only: control characters XML 1.0 cannot hold.
    static let jsonOnly = Entity(
        partitionKey: "Events", rowKey: "controls", timestamp: date("2026-01-02T03:04:05.1234567Z"),
        etag: "W/\"datetime'2026-01-02T03%3A04%3A05.1234567Z'\"",
        properties: [Property("Controls", .string("nul\u{0}tab\there\u{1}\u{1F}\u{7F}\u{2028}\u{FEFF}"))])
}
