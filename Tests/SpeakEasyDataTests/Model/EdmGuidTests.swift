import SpeakEasyData
import Testing

@Suite("EdmGuid parsing and formatting")
struct EdmGuidTests {
    @Test("parses 8-4-4-4-12 into 128 bits and formats lower-case")
    func parseAndFormat() throws {
        let guid = try #require(EdmGuid("c9da6455-213d-42c9-9a79-3e9149a57833"))
        #expect(guid.high == 0xC9DA_6455_213D_42C9)
        #expect(guid.low == 0x9A79_3E91_49A5_7833)
        #expect(guid.description == "c9da6455-213d-42c9-9a79-3e9149a57833")
    }

    @Test("upper-case input is accepted and written lower-case")
    func upperCase() throws {
        let upper = try #require(EdmGuid("DD3CB8F8-93B7-44E2-B74A-C0AA3B27A6D2"))
        let mixed = try #require(EdmGuid("dd3cB8F8-93b7-44E2-b74a-C0aa3b27A6d2"))
        #expect(upper == mixed)
        #expect(upper.description == "dd3cb8f8-93b7-44e2-b74a-c0aa3b27a6d2")
    }

    @Test("extreme values keep their leading zeros")
    func extremes() {
        #expect(EdmGuid(high: 0, low: 0).description == "00000000-0000-0000-0000-000000000000")
        #expect(EdmGuid(high: .max, low: .max).description == "ffffffff-ffff-ffff-ffff-ffffffffffff")
        #expect(EdmGuid(high: 1, low: 1).description == "00000000-0000-0001-0000-000000000001")
        #expect(EdmGuid("00000000-0000-0001-0000-000000000001") == EdmGuid(high: 1, low: 1))
    }

    @Test("random GUIDs survive format then parse")
    func randomRoundTrip() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<1_000 {
            let guid = EdmGuid(high: random.next(), low: random.next())
            #expect(EdmGuid(guid.description) == guid)
            #expect(EdmGuid(guid.description.uppercased()) == guid)
        }
    }

    @Test("order is by the 128-bit value")
    func ordering() {
        #expect(EdmGuid(high: 0, low: .max) < EdmGuid(high: 1, low: 0))
        #expect(EdmGuid(high: 1, low: 1) < EdmGuid(high: 1, low: 2))
    }

    @Test(
        "malformed GUIDs are rejected",
        arguments: [
            "",
            "c9da6455213d42c99a793e9149a57833",
            "{c9da6455-213d-42c9-9a79-3e9149a57833}",
            "c9da6455-213d-42c9-9a79-3e9149a5783g",
            "c9da6455-213d-42c9-9a793-e9149a57833",
            "c9da6455-213d-42c9-9a79-3e9149a578333",
            "c9da6455-213d-42c9-9a79-3e9149a5783",
            " c9da6455-213d-42c9-9a79-3e9149a5783",
            "c9da6455_213d_42c9_9a79_3e9149a57833",
            "c9da6455-213d-42c9-9a79+3e9149a57833",
            "------------------------------------",
            "c9da6455-213d-42c9-9a79-3e9149a5783é",
        ]
    )
    func malformed(text: String) {
        #expect(EdmGuid(text) == nil)
        #expect(Self.lowerCase(text) == nil)
    }

    static func lowerCase(_ text: String) -> EdmGuid? {
        Array(text.utf8).withUnsafeBytes { EdmGuid(lowerCase: $0) }
    }

    @Test("the lower-case parse takes exactly the lower-case form")
    func lowerCaseForm() {
        var random = SplitMix64(seed: 11)
        for _ in 0..<1_000 {
            let guid = EdmGuid(high: random.next(), low: random.next())
            #expect(Self.lowerCase(guid.description) == guid)
            #expect(Self.lowerCase(guid.description.uppercased()) == nil)
        }
        // Every byte next to the digits' and letters' ranges, in every position.
        for position in [0, 7, 9, 14, 19, 24, 35] {
            for byte in [
                UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "`"), UInt8(ascii: "g"), UInt8(ascii: "A"),
                UInt8(ascii: "F"), 0x00, 0x80, 0xB0, 0xFF,
            ] {
                var text = Array(EdmGuid(high: 0x0123_4567_89ab_cdef, low: 0xfedc_ba98_7654_3210).description.utf8)
                text[position] = byte
                #expect(text.withUnsafeBytes { EdmGuid(lowerCase: $0) } == nil, "\(byte) at \(position)")
            }
        }
        #expect(
            Self.lowerCase("01234567-89ab-cdef-0123-456789abcdef")
                == EdmGuid(high: 0x0123_4567_89ab_cdef, low: 0x0123_4567_89ab_cdef)
        )
    }

    @Test(
        "name-based GUIDs (version 5) equal Python's uuid.uuid5 for the same namespace and name",
        arguments: [
            ("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "python.org", "886313e1-3b8a-5372-9b90-0c9aee199e5d"),
            (
                "6ba7b811-9dad-11d1-80b4-00c04fd430c8", "https://example.com/Müller",
                "1f3d1e88-f52c-5b1e-8105-46605e53cd6a"
            ),
            ("eb3c908c-f027-4f50-8047-ea2389f8fbfe", "speaker\nBart Tubalinal", "98edd3b8-3812-5275-9401-b4d7815a1018"),
        ]
    )
    func nameBased(namespace: String, name: String, expected: String) throws {
        let guid = EdmGuid(nameBased: Array(name.utf8), in: try #require(EdmGuid(namespace)))
        #expect(guid.description == expected)
    }
}
