import Foundation

/// How many entities a JSON document holds, told by a scan of its structure alone, apart from the
/// readers: an oracle for a reader that accepts a document and silently leaves entities out (issue 5:
/// a second `"value"` array was dropped, and the round trip could not see it, since it starts from
/// what the reader returned).
///
/// The objects in every top-level `"value"` member that is an array (a feed), the elements of a
/// top-level array, or 1 for a bare entity. Nil when the bytes are no JSON this scan understands; the
/// reader then must have refused them anyway, and the caller only asks about documents it accepted.
enum JSONEntityCount {
    static func of(_ bytes: [UInt8]) -> Int? {
        var scan = Scan(bytes: bytes)
        scan.skipSpace()
        guard let first = scan.peek() else { return nil }
        switch first {
        case UInt8(ascii: "["):
            return scan.countArrayElements()
        case UInt8(ascii: "{"):
            scan.index += 1
            var feedEntities: Int?
            while true {
                scan.skipSpace()
                guard let next = scan.peek() else { return nil }
                if next == UInt8(ascii: "}") { break }
                if next == UInt8(ascii: ",") {
                    scan.index += 1
                    continue
                }
                guard let name = scan.string() else { return nil }
                scan.skipSpace()
                guard scan.peek() == UInt8(ascii: ":") else { return nil }
                scan.index += 1
                scan.skipSpace()
                if name == "value", scan.peek() == UInt8(ascii: "[") {
                    guard let count = scan.countArrayElements() else { return nil }
                    feedEntities = (feedEntities ?? 0) + count
                } else {
                    guard scan.skipValue() else { return nil }
                }
            }
            return feedEntities ?? 1
        default:
            return nil
        }
    }

    private struct Scan {
        static let delimiters = Set(",:{}[] \t\r\n\"".utf8)
        let bytes: [UInt8]
        var index = 0

        func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        /// A string at `index`, decoded (escapes included) by Foundation; `index` moves past it.
        mutating func string() -> String? {
            guard peek() == UInt8(ascii: "\"") else { return nil }
            let start = index
            guard skipString() else { return nil }
            let literal = Data(bytes[start..<index])
            return (try? JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed)) as? String
        }

        mutating func skipString() -> Bool {
            index += 1
            while let byte = peek() {
                index += 1
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    return true
                }
            }
            return false
        }

        /// Moves past one value of any kind: strings are skipped whole, brackets counted.
        mutating func skipValue() -> Bool {
            var depth = 0
            repeat {
                skipSpace()
                guard let byte = peek() else { return false }
                switch byte {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard depth > 0 else { return false }
                    depth -= 1
                    index += 1
                case UInt8(ascii: ","), UInt8(ascii: ":"):
                    guard depth > 0 else { return false }
                    index += 1
                default:
                    // A number or a literal: up to the next delimiter.
                    while let next = peek(), !Self.delimiters.contains(next) { index += 1 }
                }
            } while depth > 0
            return true
        }

        /// The number of values in the array at `index`; `index` moves past it.
        mutating func countArrayElements() -> Int? {
            index += 1
            var count = 0
            while true {
                skipSpace()
                guard let byte = peek() else { return nil }
                if byte == UInt8(ascii: "]") {
                    index += 1
                    return count
                }
                if byte == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard skipValue() else { return nil }
                count += 1
            }
        }
    }
}
