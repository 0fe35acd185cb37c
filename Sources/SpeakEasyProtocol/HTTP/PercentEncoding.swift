/// Percent-decoding of URL paths and query values, as Azure reads them.
package enum PercentEncoding {
    /// The text `encoded` stands for, or nil when an escape is malformed or the bytes are not UTF-8.
    /// `+` stays `+`: Azure's paths and signed query values do not use form encoding.
    package static func decode(_ encoded: some StringProtocol) -> String? {
        guard encoded.utf8.contains(UInt8(ascii: "%")) else { return String(encoded) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.utf8.count)
        var iterator = encoded.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
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
