/// Parsing and formatting of the `Edm.DateTime` lexical form.
extension EdmDateTime {
    /// Why a string is not an `Edm.DateTime`.
    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        package let text: String
        package let reason: String
        package var description: String { "'\(text)' is not an Edm.DateTime (\(reason)); expected yyyy-MM-ddTHH:mm:ss[.fffffff]Z" }
    }

    /// Parses `yyyy-MM-ddTHH:mm:ss[.f{1,7}][Z]`, the forms Azure accepts; a missing `Z` means UTC.
    package init(parsing text: some StringProtocol) throws(ParseError) {
        try self.init(parsingUTF8: text.utf8)
    }

    /// Parses the UTF-8 bytes of a lexical form (see ``init(parsing:)``).
    package init(parsingUTF8 bytes: some Collection<UInt8>) throws(ParseError) {
        var utf8 = Array(bytes)
        let text = String(decoding: utf8, as: UTF8.self)
        if utf8.last == UInt8(ascii: "Z") { utf8.removeLast() }
        try self.init(lexicalUTF8: utf8[...], text: text)
    }

    private init(lexicalUTF8 b: ArraySlice<UInt8>, text: String) throws(ParseError) {
        func fail(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }
        let s = Array(b)
        guard s.count >= 19 else { throw fail("too short") }
        func digits(_ range: Range<Int>) throws(ParseError) -> Int {
            var value = 0
            for i in range {
                let d = s[i] &- UInt8(ascii: "0")
                guard d < 10 else { throw fail("a digit was expected at position \(i + 1)") }
                value = value * 10 + Int(d)
            }
            return value
        }
        // Bytes, not strings: converting a String to a scalar on every parse cost a fifth of the
        // CSV reader's time.
        for (index, separator) in [(4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")), (16, UInt8(ascii: ":"))]
        where s[index] != separator {
            throw fail("'\(Character(Unicode.Scalar(separator)))' was expected at position \(index + 1)")
        }
        let year = try digits(0..<4), month = try digits(5..<7), day = try digits(8..<10)
        let hour = try digits(11..<13), minute = try digits(14..<16), second = try digits(17..<19)
        var fraction: Int64 = 0
        if s.count > 19 {
            guard s[19] == UInt8(ascii: ".") else { throw fail("'.' or 'Z' was expected at position 20") }
            let fractionDigits = s.count - 20
            guard fractionDigits >= 1 else { throw fail("the fraction has no digits") }
            guard fractionDigits <= 7 else { throw fail("more than 7 fractional digits") }
            fraction = Int64(try digits(20..<s.count))
            for _ in fractionDigits..<7 { fraction *= 10 }
        }
        guard let value = EdmDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction) else {
            throw fail("a field is out of range")
        }
        self = value
    }

    /// The lexical form with exactly seven fractional digits, as the SpeakEasy app requires:
    /// `2026-03-01T09:30:00.0000000Z`.
    package func formatted() -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(28)
        append(to: &out, trimmed: false)
        return out
    }

    /// The lexical form as Azure answers it: trailing fractional zeros trimmed, no dot when zero.
    package func formattedTrimmed() -> String {
        var out = [UInt8]()
        append(to: &out, trimmed: true)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the lexical form to a byte buffer (the hot path of every writer).
    package func append(to out: inout [UInt8], trimmed: Bool = false) {
        let c = components
        func put(_ value: Int, width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var v = value
            while divisor > 0 {
                out.append(UInt8(ascii: "0") &+ UInt8(v / divisor))
                v %= divisor
                divisor /= 10
            }
        }
        put(c.year, width: 4); out.append(UInt8(ascii: "-"))
        put(c.month, width: 2); out.append(UInt8(ascii: "-"))
        put(c.day, width: 2); out.append(UInt8(ascii: "T"))
        put(c.hour, width: 2); out.append(UInt8(ascii: ":"))
        put(c.minute, width: 2); out.append(UInt8(ascii: ":"))
        put(c.second, width: 2)
        if !trimmed || c.fraction != 0 {
            var fraction = c.fraction, width = 7
            if trimmed { while fraction % 10 == 0 { fraction /= 10; width -= 1 } }
            out.append(UInt8(ascii: "."))
            put(Int(fraction), width: width)
        }
        out.append(UInt8(ascii: "Z"))
    }
}
