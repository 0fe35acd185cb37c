import SpeakEasyData
import Testing

/// `UTF8Text` makes Strings without the standard library's check, so its own check must accept and
/// refuse exactly what the standard library's does. The standard library judges every case here.
@Suite("UTF8Text checks UTF-8 as the standard library does")
struct UTF8TextTests {
    /// Second, third and fourth bytes that sit on an edge of Unicode's table of well-formed sequences.
    static let edges: [UInt8] = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4,
        0xF5, 0xFF,
    ]

    /// `sequence` alone (the byte loop at the end), and after 14 ASCII bytes and before 16 more (so it
    /// straddles the sixteen-byte blocks and the words).
    static func check(_ sequence: [UInt8]) -> Bool {
        let expected = String(validating: sequence, as: UTF8.self) != nil
        let padded = Array(repeating: UInt8(ascii: "a"), count: 14) + sequence + Array(repeating: 0x20, count: 16)
        return sequence.withUnsafeBytes(UTF8Text.isValid) == expected
            && padded.withUnsafeBytes(UTF8Text.isValid) == expected
    }

    @Test("every sequence of one or two bytes")
    func oneAndTwoBytes() {
        var wrong: [[UInt8]] = []
        for first in UInt8.min...UInt8.max {
            if !Self.check([first]) { wrong.append([first]) }
            for second in UInt8.min...UInt8.max where !Self.check([first, second]) { wrong.append([first, second]) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    @Test("every lead byte of three and four, with the edges after it")
    func threeAndFourBytes() {
        var wrong: [[UInt8]] = []
        for first in UInt8(0x80)...UInt8.max {
            for second in Self.edges {
                for third in UInt8.min...UInt8.max where !Self.check([first, second, third]) {
                    wrong.append([first, second, third])
                }
            }
        }
        for first in UInt8(0xF0)...UInt8(0xF7) {
            for second in Self.edges {
                for third in Self.edges {
                    for fourth in Self.edges where !Self.check([first, second, third, fourth]) {
                        wrong.append([first, second, third, fourth])
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    @Test("prose of every script, whole and with bytes broken at random, at every length")
    func prose() {
        var random = SystemRandomNumberGenerator()
        let words = ["lorem", "\"quoted\"", "café", "naïve", "日本語", "über", "𝄞 clef", "emoji 😀", "end.\n", "tab\there"]
        for length in 0..<300 {
            var text = ""
            while text.utf8.count < length { text += words.randomElement(using: &random)! + " " }
            let bytes = Array(text.utf8.prefix(length))
            var broken = bytes
            if !broken.isEmpty {
                broken[Int.random(in: 0..<broken.count, using: &random)] = UInt8.random(in: 0x80...0xFF, using: &random)
            }
            for sample in [bytes, broken] {
                let made = sample.withUnsafeBytes(UTF8Text.string(validating:))
                #expect(made == String(validating: sample, as: UTF8.self), "\(sample)")
            }
        }
    }
}
