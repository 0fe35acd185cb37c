import SpeakEasyData
import Testing

@Suite("Base64 (RFC 4648)")
struct Base64Tests {
    @Test(
        "RFC 4648 test vectors encode and decode",
        arguments: [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ]
    )
    func vectors(plain: String, encoded: String) {
        #expect(Base64.encode(Array(plain.utf8)) == encoded)
        #expect(Base64.decode(encoded) == Array(plain.utf8))
    }

    @Test("all byte values and lengths survive encode then decode")
    func randomRoundTrip() {
        var random = SplitMix64(seed: 4648)
        for length in 0..<300 {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let encoded = Base64.encode(bytes)
            #expect(encoded.utf8.count == (length + 2) / 3 * 4)
            #expect(Base64.decode(encoded) == bytes)
        }
        let everyByte = (0...255).map { UInt8($0) }
        #expect(Base64.decode(Base64.encode(everyByte)) == everyByte)
        #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
    }

    @Test(
        "invalid base64 is rejected",
        arguments: [
            "Zg", "Zg=", "Z===", "====", "Zg=a", "Zm9v====", "Zm 9v", "Zm9v\n", "Zg==Zg==", "Zm9-", "Zm9_", "ééé",
            "Zm9v!A==", "=Zm9",
        ]
    )
    func invalid(text: String) {
        #expect(Base64.decode(text) == nil)
    }

    /// `decode` promises nil "for anything that is not canonical base64": the bits that padding
    /// drops must be zero, or two different texts decode to the same bytes and the lexical form of
    /// an `Edm.Binary` does not survive a round trip.
    @Test("non-canonical padding bits are rejected", arguments: ["Zh==", "Zm9=", "Zm9vYh==", "AB=="])
    func nonCanonical(text: String) {
        #expect(
            Base64.decode(text) == nil,
            "\(text) decodes to \(Base64.decode(text) ?? []) which encodes as \(Base64.encode(Base64.decode(text) ?? []))"
        )
    }
}
