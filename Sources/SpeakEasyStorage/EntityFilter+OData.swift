package import SpeakEasyModel

/// Writing an ``EntityFilter`` as Azure's `$filter` text, the inverse of ``init(parsing:)``.
///
/// Parsing the text gives the same filter back, tree shape included, provided its property names
/// are identifiers that are not keywords (`and`, `eq`, `true`, `NaN`…), as Azure's property names are.
/// Parentheses appear only where the grouping needs them, so the text reads like a hand-written one.
/// The text is not percent-encoded: that is the URL's business (a `+` in `1E+20` must become `%2B`).
extension EntityFilter {
    package var odataText: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .comparison(let name, let op, let value):
            out += name
            out += " "
            out += op.rawValue
            out += " "
            out += Self.odataLiteral(value)
        case .property(let name):
            out += name
        case .constant(let value):
            out += value ? "true" : "false"
        case .not(let inner):
            out += "not "
            // A comparison is bracketed too: in OData `not` binds tighter than `eq`, so a parser
            // that follows OData to the letter would read `not A eq 1` as `(not A) eq 1`.
            switch inner {
            case .property, .constant, .not: inner.write(to: &out)
            case .comparison, .and, .or: inner.writeBracketed(to: &out)
            }
        case .and(let left, let right):
            // `and` groups from the left: a left `and` needs no brackets, a right one does.
            if case .or = left { left.writeBracketed(to: &out) } else { left.write(to: &out) }
            out += " and "
            switch right {
            case .and, .or: right.writeBracketed(to: &out)
            default: right.write(to: &out)
            }
        case .or(let left, let right):
            left.write(to: &out)
            out += " or "
            if case .or = right { right.writeBracketed(to: &out) } else { right.write(to: &out) }
        }
    }

    private func writeBracketed(to out: inout String) {
        out += "("
        write(to: &out)
        out += ")"
    }

    /// A constant in the form Azure reads back as the same type and value: `'O''Brien'`, `42`,
    /// `42L`, `5.0` (a Double always keeps its `.` or exponent, or it would be read as an Int32),
    /// `true`, `datetime'2024-05-01T10:00:00.0000000Z'` (seven digits, every tick kept),
    /// `guid'c9da6455-213d-42c9-9a79-3e9149a57833'`, `X'0AFF'`. Also for keys in URLs
    /// (`(PartitionKey='p',RowKey='r')`), which quote strings the same way.
    package static func odataLiteral(_ value: EdmValue) -> String {
        switch value {
        case .string(let text): "'" + Self.doublingQuotes(text) + "'"
        case .int32(let number): String(number)
        case .int64(let number): "\(number)L"
        case .double(let number):
            // OData's names of the special values (Azure has not been seen taking them; they compare
            // with nothing but NaN itself anyway). Otherwise Swift's shortest round-tripping digits,
            // with .NET's capital E.
            number.isNaN
                ? "NaN"
                : number.isInfinite ? (number < 0 ? "-INF" : "INF") : number.description.replacing("e", with: "E")
        case .boolean(let flag): flag ? "true" : "false"
        case .dateTime(let date): "datetime'\(date.description)'"
        case .guid(let guid): "guid'\(guid.description)'"
        case .binary(let bytes): "X'" + Self.hex(bytes) + "'"
        }
    }

    /// Each `'` doubled, byte by byte: `String.replacing` works on characters, and a quote
    /// followed by a combining mark (`'\u{670}`) is one character that is not `'`, so it was left
    /// single and the literal ended there when read back (a fuzz finding).
    private static func doublingQuotes(_ text: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            out.append(byte)
            if byte == UInt8(ascii: "'") { out.append(byte) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
