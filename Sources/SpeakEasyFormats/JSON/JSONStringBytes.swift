import SpeakEasyCore

/// The bytes that matter inside a JSON string, found sixteen or eight at a time: what the readers stop
/// at and what the writer escapes.
enum JSONStringBytes {
    /// The bytes of `word` that a JSON string cannot hold as they are: `"`, `\\` and the control
    /// characters. The scanner stops at them (the string's end, an escape, an error) and the writer
    /// escapes them.
    @inline(__always)
    static func marksSpecial(_ word: UInt64) -> UInt64 {
        SWAR.bytes(word, equalTo: SWAR.broadcast(0x22)) | SWAR.bytes(word, equalTo: SWAR.broadcast(0x5C))
            | SWAR.bytes(word, below: 0x20)
    }

    /// The bytes that the word test above marks, sixteen at a time.
    @inline(__always)
    static func marksSpecial(_ vector: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
        (vector .== SIMD16(repeating: 0x22)) .| (vector .== SIMD16(repeating: 0x5C))
            .| (vector .< SIMD16(repeating: 0x20))
    }

    /// The index of the next `"` or `\\` at or after `from` (or `raw.count`): where a structural
    /// scan, which skips strings without reading them, stops inside one.
    @inline(__always)
    static func nextQuoteOrBackslash(_ raw: UnsafeRawBufferPointer, from: Int) -> Int {
        let quotes = SWAR.broadcast(0x22)
        let backslashes = SWAR.broadcast(0x5C)
        return SWAR.firstMarkedByte(
            in: raw,
            from: from,
            vectors: { vector in (vector .== SIMD16(repeating: 0x22)) .| (vector .== SIMD16(repeating: 0x5C)) },
            words: { word in SWAR.bytes(word, equalTo: quotes) | SWAR.bytes(word, equalTo: backslashes) }
        )
    }

    /// The index of the next byte ``marksSpecial(_:)`` marks at or after `from` (or `raw.count`).
    @inline(__always)
    static func nextSpecial(_ raw: UnsafeRawBufferPointer, from: Int) -> Int {
        SWAR.firstMarkedByte(in: raw, from: from, vectors: marksSpecial, words: marksSpecial)
    }

    /// ``nextSpecial(_:from:)``, collecting in `nonASCII` the high bits of the bytes it reads (some
    /// past the match too, which only sends a string to validation).
    @inline(__always)
    static func nextSpecial(_ raw: UnsafeRawBufferPointer, from: Int, nonASCII: inout UInt64) -> Int {
        guard let base = raw.baseAddress else { return from }
        var high = SIMD16<UInt8>.zero
        var index = SWAR.firstMarked(in: base, from: from, to: raw.count) { (vector: SIMD16<UInt8>) in
            high |= vector
            return marksSpecial(vector)
        }
        let highWords = unsafeBitCast(high, to: SIMD2<UInt64>.self)
        nonASCII |= (highWords[0] | highWords[1]) & SWAR.highs
        index = SWAR.firstMarked(in: raw, from: index) { word in
            nonASCII |= word & SWAR.highs
            return marksSpecial(word)
        }
        while index < raw.count {
            let byte = raw[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 { return index }
            nonASCII |= UInt64(byte & 0x80)
            index += 1
        }
        return index
    }

    /// The index of the quote that closes the string whose text starts at `from`, whether it has
    /// escapes, and whether its bytes are all ASCII, for a string spelled as ``JSONEntityWriter``
    /// spells it; nil when it holds a control character or an escape the writer would not write
    /// (`\/`, `\b`, `\u00e9`…), which a decoder must read. Between the quotes, such a string is the
    /// writer's spelling of what it decodes to, so a copy may keep it as it is.
    static func writerSpelledEnd(_ raw: UnsafeRawBufferPointer, from: Int) -> (Int, escaped: Bool, ascii: Bool)? {
        var index = from
        var escaped = false
        var nonASCII: UInt64 = 0
        while true {
            index = nextSpecial(raw, from: index, nonASCII: &nonASCII)
            guard index < raw.count else { return nil }
            switch raw[index] {
            case UInt8(ascii: "\""): return (index, escaped, nonASCII == 0)
            case UInt8(ascii: "\\"):
                escaped = true
                guard index + 1 < raw.count else { return nil }
                switch raw[index + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    // `\u00XX`, lowercase, for a control character the writer has no short escape for.
                    guard index + 5 < raw.count, raw[index + 2] == UInt8(ascii: "0"),
                        raw[index + 3] == UInt8(ascii: "0"),
                        raw[index + 4] == UInt8(ascii: "0") || raw[index + 4] == UInt8(ascii: "1"),
                        let low = lowerHexDigit(raw[index + 5])
                    else { return nil }
                    let code = (raw[index + 4] - UInt8(ascii: "0")) << 4 | low
                    guard code != 0x09, code != 0x0A, code != 0x0D else { return nil }
                    index += 6
                default: return nil
                }
            default: return nil
            }
        }
    }

    private static func lowerHexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
