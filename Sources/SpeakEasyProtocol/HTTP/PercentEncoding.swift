/// Percent-encoding of URL parts, as Azure Storage and its SDKs apply it.
///
/// `+` is left alone both ways: the SDKs sign `unquote(value)`, never `unquote_plus`, and a SAS
/// signature is base64, whose `+` must reach the verifier as `+` (clients send it as `%2B`, but a
/// literal `+` is not a space here either).
package enum PercentEncoding {
    /// Decodes `%XX` escapes; nil for a truncated or non-hex escape, or bytes that are not UTF-8.
    package static func decode(_ text: some StringProtocol) -> String? {
        let utf8 = text.utf8
        // The common case, nothing escaped: no copy of the bytes.
        guard utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                utf8.formIndex(after: &index)
                continue
            }
            let high = utf8.index(after: index)
            guard high != utf8.endIndex else { return nil }
            let low = utf8.index(after: high)
            guard low != utf8.endIndex, let h = hexValue(utf8[high]), let l = hexValue(utf8[low]) else { return nil }
            bytes.append(h << 4 | l)
            index = utf8.index(after: low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Encodes as Python's `urllib.parse.quote(text)` does (what the SDKs put in a SAS token): letters,
    /// digits, `_.-~` and the `safe` characters stay, every other byte of the UTF-8 becomes `%XX`.
    package static func encode(_ text: some StringProtocol, safe: String = "/") -> String {
        let safeBytes = Set(safe.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if isUnreserved(byte) || safeBytes.contains(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
