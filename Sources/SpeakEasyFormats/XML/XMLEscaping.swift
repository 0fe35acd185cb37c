/// Text and attribute values for XML written by hand (the validation reports, Azure's Blob listings,
/// the Table service's Atom and error bodies), escaped so any parser reads back what was meant.
///
/// Findings quote the data, and names may hold anything: quotes, `<&>`, line breaks, control
/// characters. XML 1.0 cannot hold most C0 controls (or U+FFFE/U+FFFF) at all,
/// not even as character references, so those are written as a visible `\u{1B}` rather than
/// dropped: the reader of a test dashboard should still see that something odd was there.
package enum XMLEscaping {
    /// Character data: `&`, `<`, `>` (so `]]>` cannot occur) and CR, which a parser would
    /// otherwise turn into LF.
    package static func appendText(_ text: String, to out: inout [UInt8]) {
        append(text, attribute: false, to: &out)
    }

    /// A double-quoted attribute value: as text, plus `"`, and tab and LF, which attribute-value
    /// normalisation would otherwise turn into spaces.
    package static func appendAttribute(_ value: String, to out: inout [UInt8]) {
        append(value, attribute: true, to: &out)
    }

    private static func append(_ text: String, attribute: Bool, to out: inout [UInt8]) {
        // Most text needs nothing: copy it whole when no byte is special.
        if !text.utf8.contains(where: {
            $0 < 0x20 || $0 == 0x22 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0xEF
        }) {
            out.append(contentsOf: text.utf8)
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".utf8)
            case "<": out.append(contentsOf: "&lt;".utf8)
            case ">": out.append(contentsOf: "&gt;".utf8)
            case "\"" where attribute: out.append(contentsOf: "&quot;".utf8)
            case "\r": out.append(contentsOf: "&#13;".utf8)
            case "\n" where attribute: out.append(contentsOf: "&#10;".utf8)
            case "\t" where attribute: out.append(contentsOf: "&#9;".utf8)
            case "\t", "\n": out.append(UInt8(scalar.value))
            case "\u{0}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}":
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".utf8)
            default: UTF8.encode(scalar) { out.append($0) }
            }
        }
    }
}
