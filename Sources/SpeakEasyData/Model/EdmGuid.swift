/// An `Edm.Guid`, kept as 128 bits and written lower-case 8-4-4-4-12.
package struct EdmGuid: Hashable, Comparable, Sendable, CustomStringConvertible {
    package let high: UInt64
    package let low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses the 8-4-4-4-12 form in either case; nil for anything else.
    package init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0, nibbles = 0
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = Self.hexValue(byte) else { return nil }
            if nibbles < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
            nibbles += 1
        }
        self.init(high: high, low: low)
    }

    /// Parses exactly the lower-case 8-4-4-4-12 form; nil for anything else, upper case included
    /// (keys are case-sensitive: `ABC…` and `abc…` are different RowKeys).
    package init?(lowerCase bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        var nibbles = 0
        for index in 0..<36 {
            let byte = bytes[index]
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte &- UInt8(ascii: "a") &+ 10
            default: return nil
            }
            if nibbles < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
            nibbles += 1
        }
        self.init(high: high, low: low)
    }

    package static func < (lhs: EdmGuid, rhs: EdmGuid) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

    package var description: String {
        let hex = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(36)
        for index in 0..<32 {
            if index == 8 || index == 12 || index == 16 || index == 20 { out.append(UInt8(ascii: "-")) }
            let word = index < 16 ? high : low
            let shift = UInt64(60 - (index % 16) * 4)
            out.append(hex[Int(word >> shift & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
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
