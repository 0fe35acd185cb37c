/// Parsing and formatting of the `Edm.DateTime` lexical form.
extension EdmDateTime {
    /// Why a string is not an `Edm.DateTime`.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text that was read.
        public let text: String
        /// What is wrong with it.
        public let reason: String
        /// The text, what is wrong with it, and the form expected.
        public var description: String {
            "'\(text)' is not an Edm.DateTime (\(reason)); expected yyyy-MM-ddTHH:mm:ss[.fffffff]Z"
        }
    }

    /// Parses `yyyy-MM-ddTHH:mm:ss[.f{1,7}][Z]`, the forms Azure accepts; a missing `Z` means UTC.
    public init(parsing text: some StringProtocol) throws(ParseError) {
        try self.init(parsingUTF8: text.utf8)
    }

    /// Parses the UTF-8 bytes of a lexical form (see ``init(parsing:)``).
    package init(parsingUTF8 bytes: some Collection<UInt8>) throws(ParseError) {
        let parsed: EdmDateTime?? = bytes.withContiguousStorageIfAvailable {
            try? Self.parse(UnsafeRawBufferPointer($0))
        }
        switch parsed {
        case .some(.some(let value)): self = value
        case .some(.none): throw Self.parseError(Array(bytes))
        case .none:
            let copy = Array(bytes)
            let result = copy.withUnsafeBytes { buffer in Result { () throws(ParseError) in try Self.parse(buffer) } }
            self = try result.get()
        }
    }

    /// Parses the bytes in place: the hot path of every reader, so no allocation unless it fails.
    package static func parse(_ s: UnsafeRawBufferPointer) throws(ParseError) -> EdmDateTime {
        var count = s.count
        let hasZone = count > 0 && s[count - 1] == UInt8(ascii: "Z")
        if hasZone { count -= 1 }
        guard count >= 19 else { throw parseError(Array(s)) }
        var valid = true
        @inline(__always) func digits(_ start: Int, _ end: Int) -> Int {
            var value = 0
            for i in start..<end {
                let d = s[i] &- UInt8(ascii: "0")
                if d >= 10 { valid = false }
                value = value &* 10 &+ Int(d)
            }
            return value
        }
        valid =
            s[4] == UInt8(ascii: "-") && s[7] == UInt8(ascii: "-") && s[10] == UInt8(ascii: "T")
            && s[13] == UInt8(ascii: ":") && s[16] == UInt8(ascii: ":")
        let year = digits(0, 4)
        let month = digits(5, 7)
        let day = digits(8, 10)
        let hour = digits(11, 13)
        let minute = digits(14, 16)
        let second = digits(17, 19)
        var fraction: Int64 = 0
        var fractionDigits = 0
        if count > 19 {
            fractionDigits = count - 20
            valid = valid && s[19] == UInt8(ascii: ".") && (1...7).contains(fractionDigits)
            if valid {
                fraction = Int64(digits(20, count))
                for _ in fractionDigits..<7 { fraction &*= 10 }
            }
        }
        guard valid,
            var value = EdmDateTime(
                year: year,
                month: month,
                day: day,
                hour: hour,
                minute: minute,
                second: second,
                fraction: fraction
            )
        else {
            throw parseError(Array(s))
        }
        value.lexicalShape = LexicalShape(fractionDigits: Int8(fractionDigits), hasZone: hasZone)
        return value
    }

    /// Finds the first thing wrong with a text that failed to parse, for the error message.
    private static func parseError(_ bytes: [UInt8]) -> ParseError {
        let text = String(decoding: bytes, as: UTF8.self)
        func fail(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }
        var s = bytes
        if s.last == UInt8(ascii: "Z") { s.removeLast() }
        guard s.count >= 19 else { return fail("too short") }
        for (index, separator) in [
            (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")),
            (16, UInt8(ascii: ":")),
        ]
        where s[index] != separator {
            return fail("'\(Character(Unicode.Scalar(separator)))' was expected at position \(index + 1)")
        }
        if s.count > 19 {
            guard s[19] == UInt8(ascii: ".") else { return fail("'.' or 'Z' was expected at position 20") }
            guard s.count > 20 else { return fail("the fraction has no digits") }
            guard s.count <= 27 else { return fail("more than 7 fractional digits") }
        }
        for (i, byte) in s.enumerated()
        where ![4, 7, 10, 13, 16, 19].contains(i) && !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            return fail("a digit was expected at position \(i + 1)")
        }
        return fail("a field is out of range")
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
        withLexicalForm(trimmed: trimmed) { out.append(contentsOf: $0) }
    }

    /// Appends the lexical form (``append(to:trimmed:)``) of the value `text` parses to, made from the
    /// text's own digits: once ``parse(_:)`` has accepted them, the form differs from the text only
    /// in its fraction's width and the `Z`. A copy that passes dates through (`serve`'s replies,
    /// `export`'s copied pages) spent twice the parse's time working the date out again from its
    /// ticks (perf). `text` must be one that ``parse(_:)`` accepts.
    package static func appendLexicalForm(ofParsed text: UnsafeRawBufferPointer, to out: inout [UInt8], trimmed: Bool) {
        let end = text.count - (text.last == UInt8(ascii: "Z") ? 1 : 0)
        var digits = Swift.max(0, end - 20)
        if trimmed {
            while digits > 0, text[19 + digits] == UInt8(ascii: "0") { digits -= 1 }
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 28) { form in
            let base = UnsafeMutableRawPointer(form.baseAddress!)
            base.copyMemory(from: text.baseAddress!, byteCount: 19)
            var count = 19
            if !trimmed || digits > 0 {
                form[19] = UInt8(ascii: ".")
                (base + 20).copyMemory(from: text.baseAddress! + 20, byteCount: digits)
                count = 20 + digits
                if !trimmed {
                    (base + count).initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "0"), count: 27 - count)
                    count = 27
                }
            }
            form[count] = UInt8(ascii: "Z")
            out.append(contentsOf: UnsafeRawBufferPointer(start: base, count: count + 1))
        }
    }

    /// Hands the lexical form to `body`, built in a small stack buffer with two digits per step.
    package func withLexicalForm<Result>(trimmed: Bool = false, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let c = components
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 28) { text in
            func two(_ value: Int, at index: Int) {
                text[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
                text[index + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
            }
            two(c.year / 100, at: 0)
            two(c.year % 100, at: 2)
            text[4] = UInt8(ascii: "-")
            two(c.month, at: 5)
            text[7] = UInt8(ascii: "-")
            two(c.day, at: 8)
            text[10] = UInt8(ascii: "T")
            two(c.hour, at: 11)
            text[13] = UInt8(ascii: ":")
            two(c.minute, at: 14)
            text[16] = UInt8(ascii: ":")
            two(c.second, at: 17)
            var count = 19
            if !trimmed || c.fraction != 0 {
                var fraction = c.fraction
                var width = 7
                if trimmed {
                    while fraction % 10 == 0 {
                        fraction /= 10
                        width -= 1
                    }
                }
                text[19] = UInt8(ascii: ".")
                for index in stride(from: 19 + width, to: 19, by: -1) {
                    text[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
                    fraction /= 10
                }
                count = 20 + width
            }
            text[count] = UInt8(ascii: "Z")
            return body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: text[0...count])))
        }
    }
}
