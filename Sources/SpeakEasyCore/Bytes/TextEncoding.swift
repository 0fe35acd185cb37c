/// The text encodings a data file may come in: UTF-8, and what Excel writes besides it.
///
/// Every reader works on UTF-8; a file in another encoding is turned into UTF-8 as it is read
/// (``ByteInput/init(decoding:from:)``), a chunk at a time.
package enum TextEncoding: String, CaseIterable, Sendable {
    /// UTF-8, with or without a byte order mark: what every reader reads.
    case utf8 = "utf-8"
    /// UTF-16 in the byte order its byte order mark gives, little-endian without one (as Python's
    /// `utf-16` codec reads it on every machine this runs on). Excel's "Unicode Text" is UTF-16LE with
    /// the mark.
    case utf16 = "utf-16"
    /// Windows-1252, Excel's "CSV" on a Western European or American Windows: Latin-1 but for 0x80–0x9F,
    /// which hold `€`, `‚`, `ƒ`, `„`, `…`, `Š`, `“`, `”`, `–`, `—`, `™` and more (the WHATWG Encoding
    /// Standard's table, where the five bytes Windows leaves undefined are the C1 controls of the same
    /// number).
    case windows1252 = "windows-1252"
    /// ISO 8859-1: each byte is the code point of the same number, 0x80–0x9F the C1 controls.
    case latin1

    /// The encoding whose byte order mark `prefix` starts with, when it is one that needs decoding
    /// (UTF-16's `FF FE` or `FE FF`); nil otherwise. No UTF-8 text starts with those bytes.
    package init?(byteOrderMarkOf prefix: some Collection<UInt8>) {
        let bytes = Array(prefix.prefix(2))
        guard bytes == [0xFF, 0xFE] || bytes == [0xFE, 0xFF] else { return nil }
        self = .utf16
    }

    /// The names `--encoding` takes, as help lists them.
    package static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// Windows-1252's characters for 0x80–0x9F, by the WHATWG Encoding Standard's index.
    static let windows1252High: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// The character a byte stands for in Windows-1252.
    package static func windows1252Character(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        return Unicode.Scalar(windows1252High[Int(byte - 0x80)])!
    }
}
