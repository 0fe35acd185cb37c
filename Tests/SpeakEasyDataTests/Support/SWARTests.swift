import SpeakEasyData
import Testing

@Suite("SWAR byte and character counting")
struct SWARTests {
    /// Lengths around the vector and the 255-vector block, with matches everywhere (every lane at its
    /// most), nowhere, and next to bytes that differ from the pattern in the high bit only.
    @Test(
        "counts exactly what a plain loop counts",
        arguments: [0, 1, 15, 16, 17, 63, 4063, 4064, 4065, 4080, 4096, 10_007, 100_003]
    )
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

    /// Continuation bytes (`10xxxxxx`) next to every other kind: ASCII, lead bytes, and bytes that
    /// share one of the two high bits with them.
    @Test(
        "counts the characters of UTF-8 as a plain loop does: every byte but the continuation bytes",
        arguments: [0, 1, 15, 16, 17, 63, 4063, 4064, 4065, 4080, 4096, 10_007, 100_003]
    )
    func characters(length: Int) {
        var random = SystemRandomNumberGenerator()
        let patterns: [[UInt8]] = [
            Array(repeating: 0x80, count: length),
            Array(repeating: 0x41, count: length),
            (0..<length).map { _ in
                [0x41, 0x80, 0xBF, 0xC3, 0xE2, 0xF0, 0x40, 0x00, 0xFF][Int.random(in: 0..<9, using: &random)]
            },
            Array(String(repeating: "aé€😀", count: length / 10 + 1).utf8.prefix(length)),
        ]
        for bytes in patterns {
            let expected = bytes.count { $0 & 0xC0 != 0x80 }
            #expect(bytes.withUnsafeBufferPointer { SWAR.characters(in: $0) } == expected)
        }
        let text = String(repeating: "aé€😀", count: length)
        #expect(Array(text.utf8).withUnsafeBufferPointer { SWAR.characters(in: $0) } == text.unicodeScalars.count)
    }

    @Test(
        "firstMarkedByte finds the first marked byte at any offset, in the words and in the tail",
        arguments: 0..<20
    )
    func firstMarkedByte(length: Int) {
        func marks(_ word: UInt64) -> UInt64 {
            SWAR.bytes(word, below: 0x20) | SWAR.bytes(word, equalTo: SWAR.broadcast(0x22)) | word & SWAR.highs
        }
        func first(_ bytes: [UInt8], from: Int = 0) -> Int {
            bytes.withUnsafeBytes { SWAR.firstMarkedByte(in: $0, from: from, marks) }
        }
        let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(first(plain) == length)
        for offset in 0..<length {
            for marked: UInt8 in [0x00, 0x1F, 0x22, 0x80, 0xFF] {
                var bytes = plain
                bytes[offset] = marked
                // A later mark, and bytes just past the tests' bounds, change nothing.
                if offset + 1 < length { bytes[offset + 1] = 0x00 }
                if offset > 0 { bytes[offset - 1] = 0x20 }
                #expect(first(bytes) == offset, "\(marked) at \(offset) of \(length)")
                #expect(first(bytes, from: offset + 1) == (offset + 1 < length ? offset + 1 : length))
            }
        }
    }
}

extension SWARTests {
    @Test(
        "copyUnmarked copies up to the first marked byte at any offset, in the words and in the tail",
        arguments: 0..<20
    )
    func copyUnmarked(length: Int) {
        let quotes = SWAR.broadcast(0x22)
        for offset in 0...length {
            var bytes = (0..<length).map { UInt8(ascii: "a") + UInt8($0) }
            if offset < length { bytes[offset] = 0x22 }
            if offset + 1 < length { bytes[offset + 1] = 0x22 }  // a later mark changes nothing
            for from in 0...offset {
                var target = [UInt8](repeating: 0xEE, count: 3 + length + 8)
                var (index, written) = (from, 3)
                bytes.withUnsafeBytes { source in
                    target.withUnsafeMutableBytes { target in
                        SWAR.copyUnmarked(
                            from: source.baseAddress ?? UnsafeRawPointer(target.baseAddress!),
                            index: &index,
                            end: length,
                            to: target.baseAddress!,
                            written: &written
                        ) { SWAR.bytes($0, equalTo: quotes) }
                    }
                }
                #expect(index == offset && written == 3 + offset - from, "from \(from), mark at \(offset) of \(length)")
                #expect(target[..<3] == [0xEE, 0xEE, 0xEE] && target[3..<written] == bytes[from..<offset])
            }
        }
    }
}
