extension String {
    /// The text with its control characters written as escapes (`\n`, `\r`, `\u{1B}`), so that a
    /// finding's message stays one line in the text and JSON reports however odd the data it quotes
    /// (a SpeakerName holding a line break would otherwise split the report's line, or put a raw
    /// escape sequence on a terminal). A tab stays: it breaks no line. The GitHub, JUnit and SARIF
    /// writers escape the message in their own syntax instead.
    var escapingControlCharacters: String {
        guard
            utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F })
                || unicodeScalars.contains(where: \.isC1Control)
        else { return self }
        var escaped = ""
        escaped.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.isC1Control:
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension Unicode.Scalar {
    fileprivate var isC1Control: Bool { (0x80...0x9F).contains(value) }
}
