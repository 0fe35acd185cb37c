/// A small JSON tokenizer over UTF-8 bytes that tracks line and column for error messages.
///
/// Strings are validated as UTF-8 and unescaped (surrogate pairs included); numbers are checked
/// against the JSON grammar and returned in their lexical form.
package struct JSONScanner {
    private let bytes: [UInt8]
    private(set) var position: Int
    private var line = 1
    private var lineStart = 0

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.position = 0
    }

    /// Scans `bytes` that start at `line`, `column` of a larger input, so errors point into it.
    package init(_ bytes: [UInt8], line: Int, column: Int) {
        self.bytes = bytes
        self.position = 0
        self.line = line
        self.lineStart = 1 - column
    }

    package var isAtEnd: Bool { position >= bytes.count }

    package func error(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: position - lineStart + 1, reason: reason)
    }

    package mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D: position += 1
            case 0x0A:
                position += 1
                line += 1
                lineStart = position
            default: return
            }
        }
    }

    /// The next non-whitespace byte, without consuming it.
    package mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    package mutating func expect(_ byte: UInt8) throws(JSONSyntaxError) {
        guard peek() == byte else {
            throw error(isAtEnd ? "unexpected end of input, expected '\(Character(Unicode.Scalar(byte)))'" : "expected '\(Character(Unicode.Scalar(byte)))'")
        }
        position += 1
    }

    /// Consumes `byte` if it comes next.
    package mutating func consume(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        position += 1
        return true
    }

    package mutating func scalar() throws(JSONSyntaxError) -> JSONScalar {
        guard let next = peek() else { throw error("unexpected end of input, expected a value") }
        switch next {
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .boolean(true)
        case UInt8(ascii: "f"): try literal("false"); return .boolean(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case UInt8(ascii: "{"), UInt8(ascii: "["): throw error("nested objects and arrays are not entity property values")
        default: throw error("unexpected character, expected a value")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard position + expected.count <= bytes.count, bytes[position..<position + expected.count].elementsEqual(expected) else {
            throw error("invalid literal, expected '\(word)'")
        }
        position += expected.count
    }

    package mutating func number() throws(JSONSyntaxError) -> String {
        let start = position
        func digits() -> Int {
            let begin = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position - begin
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        let integerStart = position
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("a number needs digits") }
        guard integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw error("a number must not have leading zeros") }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("a number needs digits after '.'") }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw error("a number needs digits in its exponent") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    package mutating func string() throws(JSONSyntaxError) -> String {
        try expect(UInt8(ascii: "\""))
        var out = [UInt8]()
        var runStart = position
        while true {
            guard position < bytes.count else { throw error("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[runStart..<position])
                position += 1
                break
            }
            if byte == UInt8(ascii: "\\") {
                out.append(contentsOf: bytes[runStart..<position])
                try escape(into: &out)
                runStart = position
                continue
            }
            if byte < 0x20 { throw error("a control character must be escaped inside a string") }
            position += 1
        }
        guard let text = String(validating: out, as: UTF8.self) else { throw error("a string is not valid UTF-8") }
        return text
    }

    private mutating func escape(into out: inout [UInt8]) throws(JSONSyntaxError) {
        position += 1
        guard position < bytes.count else { throw error("unterminated escape") }
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
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
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
        guard position + 4 <= bytes.count else { throw error("unterminated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
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
