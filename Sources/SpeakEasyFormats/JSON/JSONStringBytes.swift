import SpeakEasyCore

/// The bytes that matter inside a JSON string, found eight at a time: what the readers stop at and
/// what the writer escapes.
enum JSONStringBytes {
    /// The bytes of `word` that a JSON string cannot hold as they are: `"`, `\\` and the control
    /// characters. The scanner stops at them (the string's end, an escape, an error) and the writer
    /// escapes them.
    @inline(__always)
    static func marksSpecial(_ word: UInt64) -> UInt64 {
        SWAR.bytes(word, equalTo: SWAR.broadcast(0x22)) | SWAR.bytes(word, equalTo: SWAR.broadcast(0x5C))
            | SWAR.bytes(word, below: 0x20)
    }

    /// The index of the next `"` or `\\` at or after `from` (or `raw.count`): where a structural
    /// scan, which skips strings without reading them, stops inside one.
    @inline(__always)
    static func nextQuoteOrBackslash(_ raw: UnsafeRawBufferPointer, from: Int) -> Int {
        let quotes = SWAR.broadcast(0x22)
        let backslashes = SWAR.broadcast(0x5C)
        return SWAR.firstMarkedByte(in: raw, from: from) { word in
            SWAR.bytes(word, equalTo: quotes) | SWAR.bytes(word, equalTo: backslashes)
        }
    }

    /// The index of the next byte ``marksSpecial(_:)`` marks at or after `from` (or `raw.count`).
    @inline(__always)
    static func nextSpecial(_ raw: UnsafeRawBufferPointer, from: Int) -> Int {
        SWAR.firstMarkedByte(in: raw, from: from) { word in marksSpecial(word) }
    }
}
