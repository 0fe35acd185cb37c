import SpeakEasyCore

/// What a file read as UTF-8 that is not UTF-8 looks like instead, told after the error that says so:
/// the encoding (the library's words), and the option that reads it (the tools' advice, kept apart so
/// that a library caller sees no command-line option).
enum EncodingHint {
    /// After `invalid UTF-8 (byte 0xE9)`: the bad byte at `offset` of `bytes`, which start the input
    /// when `atInputStart`.
    static func invalidUTF8(
        _ bytes: UnsafeBufferPointer<UInt8>,
        at offset: Int,
        atInputStart: Bool
    ) -> (reason: String, advice: String) {
        if atInputStart, offset == 0, TextEncoding(byteOrderMarkOf: bytes) != nil {
            return (
                "; the file starts with UTF-16's byte order mark",
                ": read it with --encoding utf-16, or with no --encoding"
            )
        }
        let byte = bytes[offset]
        let character = TextEncoding.windows1252Character(byte)
        guard character.properties.generalCategory != .control else {
            return ("; the file is not UTF-8", ": give its encoding with --encoding (\(TextEncoding.names))")
        }
        return (
            "; the file looks like Windows-1252 (Excel's CSV on Windows), where 0x\(Self.hex(byte)) is '\(character)'",
            ": read it with --encoding windows-1252"
        )
    }

    /// After a header that names no key: NUL bytes in it are UTF-16 read as UTF-8.
    static func nulInHeader(_ names: [String]) -> (reason: String, advice: String)? {
        guard names.contains(where: { $0.utf8.contains(0) }) else { return nil }
        return (
            "the header holds NUL bytes: the file looks like UTF-16 without a byte order mark",
            "; read it with --encoding utf-16"
        )
    }

    private static func hex(_ byte: UInt8) -> String { String(byte, radix: 16, uppercase: true) }
}
