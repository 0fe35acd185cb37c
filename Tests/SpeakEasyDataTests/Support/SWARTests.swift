import SpeakEasyData
import Testing

@Suite("SWAR byte counting")
struct SWARTests {
    /// Lengths around the word and the 255-word block, with matches everywhere, nowhere, and next to
    /// bytes that differ from the pattern in the high bit only (where a borrow would miscount).
    @Test("counts exactly what a plain loop counts", arguments: [0, 1, 7, 8, 9, 63, 2039, 2040, 2041, 4096, 10_007])
    func exact(length: Int) {
        var random = SystemRandomNumberGenerator()
        let patterns: [[UInt8]] = [
            Array(repeating: 10, count: length),
            Array(repeating: 0x8A, count: length),
            (0..<length).map { _ in [10, 0x8A, 0x0B, 0x09, 0xFF, 0][Int.random(in: 0..<6, using: &random)] },
        ]
        for bytes in patterns {
            let expected = bytes.count { $0 == 10 }
            #expect(bytes.withUnsafeBufferPointer { SWAR.count(of: 10, in: $0) } == expected)
        }
    }
}
