internal import SpeakEasyModel

/// One token of a `$filter` text.
struct FilterToken {
    enum Kind: Equatable {
        /// A property name, or a word the parser gives a meaning (`and`, `or`, `not`, `eq`…).
        case word(String)
        /// A name directly followed by `(`: an OData function call such as `startswith(`.
        case function(String)
        /// A typed constant: `'text'`, `42`, `42L`, `2.5`, `true`, `datetime'…'`, `guid'…'`, `X'…'`.
        case literal(EdmValue)
        case open, close, comma
        case end
    }

    let kind: Kind
    /// The token's first UTF-8 byte in the filter.
    let offset: Int
    /// One past its last byte.
    let end: Int
}

/// Splits a `$filter` text into tokens, one at a time, so that the first error by position is the
/// one reported.
///
/// It works on the UTF-8 bytes: every token boundary is an ASCII byte, so each slice of a valid
/// string is valid UTF-8 again. Literal forms and their case follow Azure's documentation ("all
/// parts of the filter string are case-sensitive"): `datetime'…'`, `guid'…'`, `X'…'`/`binary'…'`,
/// `L` for Int64. (Azurite is lenient and takes any case, and `"…"` strings; we are not, so that a
/// filter tried against the local account is not one only Azurite understands.) The lexical forms
/// of DateTime and Guid are those of ``EdmDateTime`` and ``EdmGuid``.
struct FilterLexer {
    let bytes: [UInt8]
    private(set) var position = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    /// The text of `bytes[start..<end]`.
    func text(_ start: Int, _ end: Int) -> String { String(decoding: bytes[start..<end], as: UTF8.self) }

    mutating func next() throws(FilterSyntaxError) -> FilterToken {
        // OData allows spaces and tabs between tokens; line breaks are taken too (a filter pasted
        // over several lines), as they can never be part of a token.
        while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
        let start = position
        guard position < bytes.count else { return FilterToken(kind: .end, offset: start, end: start) }
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "("): return single(.open)
        case UInt8(ascii: ")"): return single(.close)
        case UInt8(ascii: ","): return single(.comma)
        case UInt8(ascii: "'"):
            let value = try quoted()
            return FilterToken(kind: .literal(.string(value)), offset: start, end: position)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            guard Self.startsName(byte) else {
                throw FilterSyntaxError(
                    at: start,
                    "unexpected character '\(text(start, Self.scalarEnd(bytes, start)))'"
                )
            }
            return try word()
        }
    }

    private mutating func single(_ kind: FilterToken.Kind) -> FilterToken {
        position += 1
        return FilterToken(kind: kind, offset: position - 1, end: position)
    }

    /// A name, and what follows it directly: a quote makes it a literal's prefix, `(` a function.
    private mutating func word() throws(FilterSyntaxError) -> FilterToken {
        let start = position
        while position < bytes.count, Self.continuesName(bytes[position]) { position += 1 }
        let name = text(start, position)
        if position < bytes.count, bytes[position] == UInt8(ascii: "'") {
            return FilterToken(kind: .literal(try prefixed(name, start: start)), offset: start, end: position)
        }
        switch name {
        case "true": return FilterToken(kind: .literal(.boolean(true)), offset: start, end: position)
        case "false": return FilterToken(kind: .literal(.boolean(false)), offset: start, end: position)
        // OData's spellings of the special doubles, so that every Double can be written.
        case "NaN": return FilterToken(kind: .literal(.double(.nan)), offset: start, end: position)
        case "INF": return FilterToken(kind: .literal(.double(.infinity)), offset: start, end: position)
        case "null":
            // Azure stores no nulls, so there is nothing to compare with one.
            throw FilterSyntaxError(
                at: start,
                "null is not a value Azure Table storage compares with; a missing property fails every comparison"
            )
        default: break
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "("), !FilterParser.keywords.contains(name) {
            return FilterToken(kind: .function(name), offset: start, end: position)
        }
        return FilterToken(kind: .word(name), offset: start, end: position)
    }

    /// The literal after a prefix: `datetime'…'`, `guid'…'`, `X'…'` or `binary'…'`.
    private mutating func prefixed(_ prefix: String, start: Int) throws(FilterSyntaxError) -> EdmValue {
        let body = try quoted()
        let literal = text(start, position)
        func unrecognized(_ type: EdmType, _ why: String? = nil) -> FilterSyntaxError {
            FilterSyntaxError(
                at: start,
                "Unrecognized '\(type.rawValue)' literal '\(literal)'" + (why.map { ": \($0)" } ?? "")
            )
        }
        switch prefix {
        case "datetime":
            do throws(EdmDateTime.ParseError) {
                return .dateTime(try EdmDateTime(parsing: body))
            } catch {
                throw unrecognized(.dateTime, "\(error.reason); expected yyyy-MM-ddTHH:mm:ss[.fffffff][Z]")
            }
        case "guid":
            guard let guid = EdmGuid(body) else { throw unrecognized(.guid, "expected 8-4-4-4-12 hexadecimal digits") }
            return .guid(guid)
        case "X", "binary":
            guard let data = Self.hexBytes(body) else {
                throw unrecognized(.binary, "expected an even number of hexadecimal digits")
            }
            return .binary(data)
        default:
            let known = ["datetime", "guid", "X", "binary"]
            if let intended = known.first(where: { $0.lowercased() == prefix.lowercased() }) {
                throw FilterSyntaxError(
                    at: start,
                    "unknown literal prefix '\(prefix)': prefixes are case-sensitive, write '\(intended)'"
                )
            }
            throw FilterSyntaxError(
                at: start,
                "unknown literal prefix '\(prefix)'; Azure Table storage takes datetime'…', guid'…', X'…' and binary'…'"
            )
        }
    }

    /// A quoted text from the `'` at `position`, a doubled quote standing for one.
    private mutating func quoted() throws(FilterSyntaxError) -> String {
        let open = position
        position += 1
        var value = [UInt8]()
        while position < bytes.count {
            if bytes[position] == UInt8(ascii: "'") {
                if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "'") {
                    value.append(UInt8(ascii: "'"))
                    position += 2
                    continue
                }
                position += 1
                return String(decoding: value, as: UTF8.self)
            }
            value.append(bytes[position])
            position += 1
        }
        throw FilterSyntaxError(
            at: open,
            "unterminated string: the quote opened here is never closed (a quote inside a string is written twice: 'O''Brien')"
        )
    }

    /// `42` (Int32), `42L` (Int64), `2.5`, `1E+10`, `2.5E-3` (Double), `-INF`; a sign only as `-`.
    ///
    /// An integer without `L` must fit Int32 (Azure: "Unrecognized 'Edm.Int32' literal '…'"),
    /// never silently widened, as a wider constant would be typed Int64 and match nothing Int32.
    private mutating func number() throws(FilterSyntaxError) -> FilterToken {
        let start = position
        func digits() -> Int {
            let first = position
            while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
            return position - first
        }
        func literal() -> String { text(start, position) }
        if bytes[position] == UInt8(ascii: "-") {
            position += 1
            if bytes[position...].starts(with: "INF".utf8),
                position + 3 == bytes.count || !Self.continuesName(bytes[position + 3])
            {
                position += 3
                return FilterToken(kind: .literal(.double(-.infinity)), offset: start, end: position)
            }
            guard digits() > 0 else {
                throw FilterSyntaxError(at: start, "'-' must be followed by digits: there is no subtraction")
            }
        } else {
            _ = digits()
        }
        var isDouble = false
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            isDouble = true
            guard digits() > 0 else {
                throw FilterSyntaxError(at: start, "'\(literal())' is not a number: a digit must follow the '.'")
            }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "E") || bytes[position] == UInt8(ascii: "e") {
            position += 1
            isDouble = true
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else {
                throw FilterSyntaxError(at: start, "'\(literal())' is not a number: the exponent has no digits")
            }
        }
        var type = isDouble ? EdmType.double : .int32
        if !isDouble, position < bytes.count, bytes[position] == UInt8(ascii: "L") {
            position += 1
            type = .int64
        }
        if position < bytes.count, Self.continuesName(bytes[position]) || bytes[position] == UInt8(ascii: ".") {
            while position < bytes.count, Self.continuesName(bytes[position]) || bytes[position] == UInt8(ascii: ".") {
                position += 1
            }
            throw FilterSyntaxError(
                at: start,
                "'\(literal())' is not a literal: numbers are 42 (Int32), 42L (Int64) or 4.2 (Double)"
            )
        }
        let number = type == .int64 ? String(literal().dropLast()) : literal()
        guard let value = EdmValue(lexical: number, as: type) else {
            throw FilterSyntaxError(at: start, "Unrecognized '\(type.rawValue)' literal '\(literal())'")
        }
        return FilterToken(kind: .literal(value), offset: start, end: position)
    }

    /// Bytes from pairs of hexadecimal digits of either case; nil for an odd count or another character.
    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    /// Property names are identifiers: a letter or `_`, then letters, digits and `_`. Bytes of
    /// non-ASCII characters count as letters, as Azure's names may be any C# identifier.
    static func startsName(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26 || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    static func continuesName(_ byte: UInt8) -> Bool { startsName(byte) || byte &- UInt8(ascii: "0") < 10 }

    /// One past the character starting at `start`, for quoting a whole character in messages.
    private static func scalarEnd(_ bytes: [UInt8], _ start: Int) -> Int {
        var end = start + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return end
    }
}
