/// Percent-encoding of a path for a URL (RFC 3986): every byte of its UTF-8 except the unreserved
/// characters and `/`. Blob URLs and SARIF's artifact URIs both need exactly this.
package enum PercentEncoding {
    package static func encodePath(_ path: String) -> String {
        encode(path, keepingSlash: true)
    }

    /// A query parameter's name or value for a URL: every byte but the unreserved characters (so
    /// `/`, `&`, `=`, `+` and `#` too), which any reader of a query decodes back to the same text.
    package static func encodeQueryComponent(_ text: String) -> String {
        encode(text, keepingSlash: false)
    }

    private static func encode(_ path: String, keepingSlash: Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepingSlash:
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (either case of hex digit); nil when an escape is cut short or not hex, or
    /// the bytes are not valid UTF-8. `+` stays `+`: in a URL path it is not a space.
    package static func decode(_ text: some StringProtocol) -> String? {
        // Generic callers in other modules reach here unspecialised: the bytes are read once, here,
        // rather than a witness call per byte.
        if let decoded = text.utf8.withContiguousStorageIfAvailable(decode(utf8:)) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer(decode(utf8:))
    }

    /// ``decode(_:)`` of the UTF-8 bytes of a string (so valid UTF-8 when it holds no escape).
    package static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let first = bytes.firstIndex(of: UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
        var malformed = false
        let decoded = [UInt8](unsafeUninitializedCapacity: bytes.count) { out, count in
            _ = out.initialize(fromContentsOf: bytes[..<first])
            count = first
            var index = first
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                guard byte == UInt8(ascii: "%") else {
                    out[count] = byte
                    count += 1
                    continue
                }
                guard index + 1 < bytes.count, let high = HexDigit.value(bytes[index]),
                    let low = HexDigit.value(bytes[index + 1])
                else {
                    malformed = true
                    return
                }
                out[count] = high << 4 | low
                count += 1
                index += 2
            }
        }
        return malformed ? nil : String(validating: decoded, as: UTF8.self)
    }
}
