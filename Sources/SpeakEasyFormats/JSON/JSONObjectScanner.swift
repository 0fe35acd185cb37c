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

    /// Moves on to `end`, past bytes read by other means that hold no line break (an object copied
    /// in one pass, ``JSONReplyCopy``).
    mutating func skip(to end: Int) {
        position = end
    }

    /// The next non-whitespace byte, not consumed; nil at the end of the bytes.
    mutating func peek() throws(JSONSyntaxError) -> UInt8? {
        position = JSONWhitespace.skip(bytes, from: position, line: &line, lineStart: &lineStart)
        return position < bytes.count ? bytes[position] : nil
    }

    mutating func expect(_ byte: UInt8) throws(JSONSyntaxError) {
        guard let next = try peek() else {
            throw endError("unexpected end of input, expected '\(Character(Unicode.Scalar(byte)))'")
        }
        guard next == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        position += 1
    }

    mutating func consume(_ byte: UInt8) throws(JSONSyntaxError) -> Bool {
        guard try peek() == byte else { return false }
        position += 1
        return true
    }

    // MARK: - Scalars

    mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        for i in 0..<count {
            guard position + i < bytes.count else { throw endError("invalid literal, expected '\(word)'") }
            guard bytes[position + i] == word.utf8Start[i] else { throw error("invalid literal, expected '\(word)'") }
        }
        position += count
    }

    /// A number checked against the JSON grammar, as the range of its lexical form.
    mutating func number() throws(JSONSyntaxError) -> Range<Int> {
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
            position = JSONStringBytes.nextSpecial(bytes, from: position, nonASCII: &nonASCII)
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
    ///
    /// Decoded into a buffer on the stack, a word at a time (``SWAR/copyUnmarked(from:index:end:to:written:_:)``),
    /// with only a string longer than the buffer going on in an array. Decoded into an array run by
    /// run and escape by escape, prose with a quote or line break every 20 bytes spent 40% of
    /// NDJSON→CSV in the appends and the escapes.
    private mutating func escapedString(from start: Int) throws(JSONSyntaxError) -> String {
        let chunkSize = 4096
        var longer: [UInt8] = []
        var nonASCII: UInt64 = 0
        let shortEscapes = Self.shortEscapes
        return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: chunkSize) {
            chunk throws(JSONSyntaxError) -> String in
            let source = bytes.baseAddress!
            let target = UnsafeMutableRawPointer(chunk.baseAddress!)
            var written = 0
            position = start
            while true {
                // Room for what a copy may take, as decoded text is never longer than its source, and
                // for an escape's four bytes.
                if chunkSize - written < 64 {
                    longer.append(contentsOf: UnsafeBufferPointer(start: chunk.baseAddress!, count: written))
                    written = 0
                }
                let limit = min(bytes.count, position + chunkSize - 8 - written)
                SWAR.copyUnmarked(from: source, index: &position, end: limit, to: target, written: &written) {
                    word in
                    nonASCII |= word
                    return JSONStringBytes.marksSpecial(word)
                }
                if position == limit, limit < bytes.count { continue }
                guard position < bytes.count else { throw endError("unterminated string") }
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    position += 1
                    break
                }
                if byte == UInt8(ascii: "\\") {
                    written += try shortEscapes.withUnsafeBufferPointer { table throws(JSONSyntaxError) in
                        try escape(into: target + written, table)
                    }
                    continue
                }
                throw error("a control character must be escaped inside a string")
            }
            // Escapes decode to valid UTF-8, so only raw bytes with a high bit need the check.
            let ascii = nonASCII & SWAR.highs == 0
            let decoded = UnsafeRawBufferPointer(start: chunk.baseAddress!, count: written)
            let string: String?
            if longer.isEmpty {
                string = Self.text(decoded, ascii: ascii)
            } else {
                longer.append(contentsOf: decoded)
                string = longer.withUnsafeBytes { Self.text($0, ascii: ascii) }
            }
            guard let string else { throw error("a string is not valid UTF-8") }
            return string
        }
    }

    /// Decoded text as a String; nil when it is not valid UTF-8 (which `ascii` rules out).
    private static func text(_ bytes: UnsafeRawBufferPointer, ascii: Bool) -> String? {
        ascii ? UTF8Text.string(known: bytes) : UTF8Text.string(validating: bytes)
    }

    /// Decodes the escape at `position` (its backslash) into `target`: how many bytes it took (1–4).
    /// `shortEscapes` is ``shortEscapes``, fetched once per string.
    @inline(__always)
    private mutating func escape(
        into target: UnsafeMutableRawPointer,
        _ shortEscapes: UnsafeBufferPointer<UInt8>
    ) throws(JSONSyntaxError) -> Int {
        position += 1
        guard position < bytes.count else { throw endError("unterminated escape") }
        let byte = bytes[position]
        position += 1
        // The one-letter escapes come from a table: a `switch` compiled to a jump table, whose
        // indirect jump mispredicted on most escapes of prose.
        let decoded = shortEscapes[Int(byte)]
        if decoded != 0 {
            target.storeBytes(of: decoded, as: UInt8.self)
            return 1
        }
        guard byte == UInt8(ascii: "u") else {
            throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
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
        var count = 0
        for unit in Unicode.Scalar(scalar)!.utf8 {
            target.storeBytes(of: unit, toByteOffset: count, as: UInt8.self)
            count += 1
        }
        return count
    }

    /// What each one-letter escape stands for, by its letter (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`,
    /// `\t`); 0 for the other bytes.
    private static let shortEscapes: [UInt8] = (0...255).map { (letter: UInt8) -> UInt8 in
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: 0
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
