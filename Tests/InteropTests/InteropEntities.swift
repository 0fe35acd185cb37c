import SpeakEasyData
import TestSupport

/// What we write for the SDKs to read: every Edm type with the extremes that most easily get lost.
enum InteropEntities {
    /// 64 KiB of UTF-8 mixing 1- to 4-byte characters, quotes, XML specials and line breaks.
    static let longString: String = {
        let chunk = "aé€😀\"<&>'\n\t"
        var text = ""
        while text.utf8.count + chunk.utf8.count <= 65_536 { text += chunk }
        while text.utf8.count < 65_536 { text += "x" }
        return text
    }()

    /// The unit tests' every-type sample, plus dates with 7 and with no fractional digits.
    static let everyType: [Property] =
        SampleProperties.everyType + [
            Property("DateSevenDigits", .dateTime(.at("2024-05-01T10:00:00.1234567Z"))),
            Property("DateWhole", .dateTime(.at("1843-07-01T09:00:00Z"))),
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
            partitionKey: "Events",
            rowKey: "it's a \"key\" with spaces",
            timestamp: .at("2026-01-02T03:04:05.1234567Z"),
            etag: "W/\"datetime'2026-01-02T03%3A04%3A05.1234567Z'\"",
            properties: everyType
        ),
        Entity(
            partitionKey: "speaker's <&> \"place\"",
            rowKey: "row with spaces 😀",
            timestamp: .at("2026-01-02T03:04:05Z"),
            etag: "W/\"datetime'2026-01-02T03%3A04%3A05Z'\"",
            properties: strings
        ),
        Entity(
            partitionKey: "",
            rowKey: "keys only",
            timestamp: .at("2026-01-02T03:04:05.5Z"),
            etag: "W/\"datetime'2026-01-02T03%3A04%3A05.5Z'\""
        ),
    ]

    /// JSON only: control characters XML 1.0 cannot hold.
    static let jsonOnly = Entity(
        partitionKey: "Events",
        rowKey: "controls",
        timestamp: .at("2026-01-02T03:04:05.1234567Z"),
        etag: "W/\"datetime'2026-01-02T03%3A04%3A05.1234567Z'\"",
        properties: [Property("Controls", .string("nul\u{0}tab\there\u{1}\u{1F}\u{7F}\u{2028}\u{FEFF}"))]
    )
}
