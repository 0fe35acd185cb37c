/// Where a JSON document that is not JSON goes wrong, for files read with a `Decodable` type
/// (`catalog.json`): Foundation's decoder says only that the data is not valid JSON, not where.
package enum JSONSyntaxCheck {
    /// Nesting past this is refused rather than recursed into.
    static let maximumDepth = 512

    /// The first syntax error of `bytes`, one JSON value with whitespace around it, with its line and
    /// column; nil when the bytes are JSON.
    package static func firstError(in bytes: [UInt8]) -> JSONSyntaxError? {
        bytes.withUnsafeBytes { raw -> JSONSyntaxError? in
            var scanner = JSONObjectScanner(raw)
            do throws(JSONSyntaxError) {
                try scanner.skipValue(depth: 0)
                if try scanner.peek() != nil { throw scanner.error("unexpected text after the JSON value") }
                return nil
            } catch {
                return error
            }
        }
    }
}

extension JSONObjectScanner {
    /// Reads past one value of any kind, objects and arrays included, checking its grammar.
    mutating func skipValue(depth: Int) throws(JSONSyntaxError) {
        guard depth < JSONSyntaxCheck.maximumDepth else { throw error("nested too deeply") }
        guard let first = try peek() else { throw error("unexpected end of input, expected a value") }
        switch first {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try number()
        case UInt8(ascii: "{"):
            try expect(UInt8(ascii: "{"))
            if try consume(UInt8(ascii: "}")) { return }
            repeat {
                guard let next = try peek() else { throw error("unexpected end of input, expected a property name") }
                guard next == UInt8(ascii: "\"") else { throw error("expected a property name in quotes") }
                _ = try string()
                try expect(UInt8(ascii: ":"))
                try skipValue(depth: depth + 1)
            } while try consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            try expect(UInt8(ascii: "["))
            if try consume(UInt8(ascii: "]")) { return }
            repeat { try skipValue(depth: depth + 1) } while try consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
        default: throw error("unexpected character, expected a value")
        }
    }
}
