import SpeakEasyCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `multipart/mixed` framing of an entity group transaction (RFC 2046), and the HTTP messages
/// (`application/http`) inside its parts, read from bytes and written to bytes.
///
/// Reading is tolerant where clients differ, as Azure is: CRLF or bare LF line ends, extra blank
/// lines after part headers (the JS SDK's), header names in any case. It is strict where a
/// mistake would change meaning: a boundary that never closes, or a part that is not an HTTP
/// message, is an error, never a guess.
enum MultipartMixed {
    struct Part {
        var headers: [(name: String, value: String)]
        var body: ArraySlice<UInt8>

        func header(_ name: String) -> String? {
            headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
        }
    }

    enum Failure: Error, Equatable {
        case noBoundary
        case cutShort
        case malformedPart(String)
    }

    /// The `boundary` parameter of a `multipart/mixed` content type (quotes removed).
    static func boundary(ofContentType contentType: String) -> String? {
        let parts = contentType.split(separator: ";").map { $0.trimmingASCIISpaces }
        guard let type = parts.first, type.lowercased() == "multipart/mixed" else { return nil }
        for parameter in parts.dropFirst() {
            guard let equals = parameter.firstIndex(of: "=") else { continue }
            guard parameter[..<equals].trimmingASCIISpaces.lowercased() == "boundary" else { continue }
            var value = parameter[parameter.index(after: equals)...].trimmingASCIISpaces
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }

    /// The parts between `--boundary` lines, up to the closing `--boundary--`. The line break before
    /// a delimiter belongs to the delimiter, so a part's body ends where its text ends.
    static func parts(_ body: ArraySlice<UInt8>, boundary: String) throws(Failure) -> [Part] {
        let delimiter = Array("--\(boundary)".utf8)
        var lines = LineCursor(body)
        var parts: [Part] = []
        var partStart: Int?
        while let line = lines.next() {
            guard line.text.starts(with: delimiter) else { continue }
            let rest = line.text.dropFirst(delimiter.count)
            let closing = rest.starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")])
            let after = closing ? rest.dropFirst(2) : rest
            // A line that merely starts like the delimiter (a longer boundary) is content.
            guard after.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { continue }
            if let start = partStart {
                // A delimiter right after the previous one: an empty part (its line break is the
                // previous delimiter's, so the range would otherwise run backwards).
                parts.append(try part(body[start..<max(start, line.start)]))
            }
            if closing { return parts }
            partStart = line.end
        }
        throw partStart == nil ? .noBoundary : .cutShort
    }

    /// A part: its headers, a blank line, its body (whose last line break is the delimiter's).
    private static func part(_ bytes: ArraySlice<UInt8>) throws(Failure) -> Part {
        var bytes = bytes
        if bytes.last == 0x0A { bytes = bytes.dropLast() }
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        var lines = LineCursor(bytes)
        let headers = try headerLines(&lines)
        return Part(headers: headers, body: bytes[lines.position...])
    }

    /// Header lines up to the blank line that ends them (or the end).
    static func headerLines(_ lines: inout LineCursor) throws(Failure) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        while let line = lines.next() {
            if line.text.isEmpty { break }
            guard let colon = line.text.firstIndex(of: UInt8(ascii: ":")), colon > line.text.startIndex,
                !line.text[..<colon].contains(UInt8(ascii: " ")),
                let name = text(line.text[..<colon]), let value = text(trimmed(line.text[(colon + 1)...]))
            else { throw .malformedPart("a header line is not `Name: value`") }
            headers.append((name, value))
        }
        return headers
    }

    /// An HTTP message in a part: its start line (`POST url HTTP/1.1`, `HTTP/1.1 204 No Content`),
    /// headers and body. Blank lines before the start line and around the body are skipped.
    static func httpMessage(_ bytes: ArraySlice<UInt8>) throws(Failure) -> HTTPMessage {
        var lines = LineCursor(bytes)
        var startLine: String?
        while let line = lines.next() {
            guard !line.text.isEmpty else { continue }
            startLine = text(line.text)
            break
        }
        guard let startLine else { throw .malformedPart("the part holds no HTTP message") }
        let headers = try headerLines(&lines)
        var body = bytes[lines.position...]
        while let first = body.first, first == 0x0D || first == 0x0A { body = body.dropFirst() }
        while let last = body.last, last == 0x0D || last == 0x0A { body = body.dropLast() }
        return (startLine, headers, body)
    }

    /// The bytes as a string; nil when they are not UTF-8. ASCII, which headers nearly always are,
    /// needs no validation (`String(validating:)` instantiates generic metadata on every call).
    private static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        bytes.allSatisfy { $0 < 0x80 }
            ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }

    /// Without the spaces and tabs at either end.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isBlank = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return [] }
        return bytes[first...last]
    }

    typealias HTTPMessage = (startLine: String, headers: [(name: String, value: String)], body: ArraySlice<UInt8>)

    /// Lines of a byte slice, each without its CRLF or LF, with where it starts and where the next begins.
    struct LineCursor {
        let bytes: ArraySlice<UInt8>
        var position: Int

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            position = bytes.startIndex
        }

        mutating func next() -> (text: ArraySlice<UInt8>, start: Int, end: Int)? {
            guard position < bytes.endIndex else { return nil }
            let start = position
            let newline = bytes.withUnsafeBufferPointer { buffer in
                // memchr: a line of a batch is an entity's whole JSON.
                let from = start - bytes.startIndex
                return memchr(buffer.baseAddress! + from, 0x0A, buffer.count - from).map {
                    bytes.startIndex + UnsafeRawPointer(buffer.baseAddress!).distance(to: UnsafeRawPointer($0))
                }
            }
            var end = newline ?? bytes.endIndex
            position = newline.map { $0 + 1 } ?? bytes.endIndex
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            // The CR of a CRLF belongs to the line break, so a part ends before it.
            var lineStart = start
            if start > bytes.startIndex, bytes[start - 1] == 0x0A {
                lineStart = start - 1
                if lineStart > bytes.startIndex, bytes[lineStart - 1] == 0x0D { lineStart -= 1 }
            }
            return (bytes[start..<end], lineStart, position)
        }
    }
}
