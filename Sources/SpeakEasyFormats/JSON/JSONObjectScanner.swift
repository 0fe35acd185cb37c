import SpeakEasyCore

/// Finds the members of one flat JSON object in place, in a single pass over its bytes, without
/// copying them: the hot path of the JSON and NDJSON readers.
///
/// Each member comes back as byte ranges (``JSONMember``); only strings with escapes are decoded
/// here. Strings are scanned eight bytes at a time. Line and column are tracked for errors.
///
/// The scanner may be given a buffer that ends before the object does (a stream's window). Then it
/// fails with ``ranOut`` set, and the caller reads more input and scans again; an object complete in
/// the buffer is never read past its closing `}`.
struct JSONObjectScanner {
    let bytes: UnsafeRawBufferPointer
    private(set) var position: Int
    private(set) var line: Int
    /// Where the current line starts, as an index into `bytes` (negative when it started earlier).
    private(set) var lineStart: Int
    /// True when a failure came from reaching the end of `bytes`: more input may complete the object.
    private(set) var ranOut = false

    init(_ bytes: UnsafeRawBufferPointer, position: Int = 0, line: Int = 1, column: Int = 1) {
        self.bytes = bytes
        self.position = position
        self.line = line
        self.lineStart = position - (column - 1)
    }

    var column: Int { position - lineStart + 1 }

    func error(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: column, reason: reason)
    }

    private mutating func endError(_ reason: String) -> JSONSyntaxError {
        ranOut = true
        return error(reason)
    }

    // MARK: - Structure

    /// Reads `{ "key": scalar, … }` into `members` (cleared first), leaving `position` after the `}`.
    mutating func scanObject(into members: inout [JSONMember]) throws(JSONSyntaxError) {
        members.removeAll(keepingCapacity: true)
        try expect(UInt8(ascii: "{"))
        if try consume(UInt8(ascii: "}")) { return }
        repeat {
            guard let next = try peek() else { throw endError("unexpected end of input, expected a property name") }
            guard next == UInt8(ascii: "\"") else { throw error("expected a property name in quotes") }
            let keyLine = line
            let keyColumn = column
            let key = try string()
            try expect(UInt8(ascii: ":"))
            guard let first = try peek() else { throw endError("unexpected end of input, expected a value") }
            let valueLine = line
            let valueColumn = column
            let value: JSONMember.Value
            switch first {
            case UInt8(ascii: "\""): value = .string(try string())
            case UInt8(ascii: "t"):
                try literal("true")
                value = .boolean(true)
            case UInt8(ascii: "f"):
                try literal("false")
                value = .boolean(false)
            case UInt8(ascii: "n"):
                try literal("null")
                value = .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = .number(try number())
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                throw error("nested objects and arrays are not entity property values")
            default: throw error("unexpected character, expected a value")
            }
            members.append(
                JSONMember(
                    key: key,
                    keyLine: keyLine,
                    keyColumn: keyColumn,
                    value: value,
                    line: valueLine,
                    column: valueColumn
                )
            )
        } while try consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
    }

    /// The next non-whitespace byte, not consumed; nil at the end of the bytes.
    mutating func peek() throws(JSONSyntaxError) -> UInt8? {
        position = JSONWhitespace.skip(bytes, from: position, line: &line, lineStart: &lineStart)
        return position < bytes.count ? bytes[position] : nil
    }

    private mutating func expect(_ byte: UInt8) throws(JSONSyntaxError) {
        guard let next = try peek() else {
            throw endError("unexpected end of input, expected '\(Character(Unicode.Scalar(byte)))'")
        }
        guard next == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        position += 1
    }

    private mutating func consume(_ byte: UInt8) throws(JSONSyntaxError) -> Bool {
        guard try peek() == byte else { return false }
        position += 1
        return true
    }

    // MARK: - Scalars

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        for i in 0..<count {
            guard position + i < bytes.count else { throw endError("invalid literal, expected '\(word)'") }
            guard bytes[position + i] == word.utf8Start[i] else { throw error("invalid literal, expected '\(word)'") }
        }
        position += count
    }

    /// A number checked against the JSON grammar, as the range of its lexical form.
    private mutating func number() throws(JSONSyntaxError) -> Range<Int> {
        let start = position
        func digits() -> Int {
            let begin = position
            while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
            return position - begin
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        // A number that reaches the end of the bytes may go on in the next input.
        if position == bytes.count { ranOut = true }
        guard integerDigits > 0 else { throw error("a number needs digits") }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else {
            throw error("a number must not have leading zeros")
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            let fractionDigits = digits()
            if position == bytes.count { ranOut = true }
            guard fractionDigits > 0 else { throw error("a number needs digits after '.'") }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            let exponentDigits = digits()
            if position == bytes.count { ranOut = true }
            guard exponentDigits > 0 else { throw error("a number needs digits in its exponent") }
        }
        return start..<position
    }

    /// The string at `position` (which holds its opening quote).
    mutating func string() throws(JSONSyntaxError) -> JSONMember.Text {
        position += 1
        let start = position
        var nonASCII: UInt64 = 0
        while true {
            position = nextSpecial(from: position, nonASCII: &nonASCII)
            guard position < bytes.count else { throw endError("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return .plain(start..<(position - 1), ascii: nonASCII == 0)
            }
            if byte == UInt8(ascii: "\\") { return .escaped(try escapedString(from: start)) }
            throw error("a control character must be escaped inside a string")
        }
    }

    /// Decodes a string that has escapes; `position` is at its first backslash.
    private mutating func escapedString(from start: Int) throws(JSONSyntaxError) -> String {
        var out = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        var nonASCII: UInt64 = 0
        while true {
            let runStart = position
            position = nextSpecial(from: position, nonASCII: &nonASCII)
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<position]))
            guard position < bytes.count else { throw endError("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                break
            }
            if byte == UInt8(ascii: "\\") {
                try escape(into: &out)
                continue
            }
            throw error("a control character must be escaped inside a string")
        }
        guard let text = String(validating: out, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
        return text
    }

    /// The index of the next quote, backslash or control character at or after `from` (or the end),
    /// eight bytes at a time; `nonASCII` collects high bits seen (words read past the match included,
    /// which only sends a string to validation).
    @inline(__always)
    private func nextSpecial(from: Int, nonASCII: inout UInt64) -> Int {
        let quotes = SWAR.broadcast(0x22)
        let backslashes = SWAR.broadcast(0x5C)
        var index = SWAR.firstMarked(in: bytes, from: from) { word in
            nonASCII |= word & SWAR.highs
            return SWAR.bytes(word, equalTo: quotes) | SWAR.bytes(word, equalTo: backslashes)
                | SWAR.bytes(word, below: 0x20)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 || byte == 0x5C || byte < 0x20 { return index }
            nonASCII |= UInt64(byte & 0x80)
            index += 1
        }
        return index
    }

    private mutating func escape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        position += 1
        guard position < bytes.count else { throw endError("unterminated escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(byte)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard position + 1 < bytes.count else {
                    throw endError("a high surrogate must be followed by a low surrogate")
                }
                guard bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("a high surrogate must be followed by a low surrogate")
                }
                position += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate") }
                scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("a lone low surrogate")
            }
            out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default: throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw endError("unterminated \\u escape") }
            let byte = bytes[position] | 0x20
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}

/// One member of a flat JSON object as the scanner found it: ranges into the scanned bytes.
struct JSONMember {
    enum Text {
        /// The bytes between the quotes, no escapes; `ascii` when none has its high bit set.
        case plain(Range<Int>, ascii: Bool)
        /// A string that had escapes, decoded and validated.
        case escaped(String)
    }

    enum Value {
        case string(Text)
        /// The lexical form, grammar-checked.
        case number(Range<Int>)
        case boolean(Bool)
        case null
    }

    var key: Text
    var keyLine: Int
    var keyColumn: Int
    var value: Value
    /// Where the value starts, for errors about it.
    var line: Int
    var column: Int
}
