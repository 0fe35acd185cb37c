import SpeakEasyCore

/// An `Edm.Guid`, kept as 128 bits and written lower-case 8-4-4-4-12.
public struct EdmGuid: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The first 64 bits, as the 8-4-4 groups write them.
    public let high: UInt64
    /// The last 64 bits, as the 4-12 groups write them.
    public let low: UInt64

    /// The GUID of these 128 bits.
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses the 8-4-4-4-12 form in either case; nil for anything else.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        var nibbles = 0
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard let nibble = HexDigit.value(byte) else { return nil }
            if nibbles < 16 { high = high << 4 | UInt64(nibble) } else { low = low << 4 | UInt64(nibble) }
            nibbles += 1
        }
        self.init(high: high, low: low)
    }

    /// Parses exactly the lower-case 8-4-4-4-12 form; nil for anything else, upper case included
    /// (keys are case-sensitive: `ABC…` and `abc…` are different RowKeys).
    ///
    /// On every event's RowKey, so eight digits at a time (``hexDigits(_:)``).
    package init?(lowerCase bytes: UnsafeRawBufferPointer) {
        let dash = UInt8(ascii: "-")
        guard bytes.count == 36, bytes[8] == dash, bytes[13] == dash, bytes[18] == dash, bytes[23] == dash else {
            return nil
        }
        func word(_ offset: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        func half(_ offset: Int) -> UInt64 { UInt64(bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        // The 32 digits as four words of eight, dashes left out.
        guard let a = Self.hexDigits(word(0)), let b = Self.hexDigits(half(9) | half(14) << 32),
            let c = Self.hexDigits(half(19) | half(24) << 32), let d = Self.hexDigits(word(28))
        else { return nil }
        self.init(high: UInt64(a) << 32 | UInt64(b), low: UInt64(c) << 32 | UInt64(d))
    }

    /// The value of eight lower-case hex digits, the first in the word's lowest byte; nil if any byte
    /// is not one. Bytes are 7-bit once the high bits are checked, so adding `0x80 - n` sets a byte's
    /// high bit exactly when it is at least `n`, without carrying into the next byte.
    private static func hexDigits(_ word: UInt64) -> UInt32? {
        let ones = SWAR.ones
        let highs = SWAR.highs
        guard word & highs == 0 else { return nil }
        func atLeast(_ n: UInt8) -> UInt64 { (word &+ ones &* UInt64(0x80 - n)) & highs }
        let digits = atLeast(UInt8(ascii: "0")) & ~atLeast(UInt8(ascii: "9") + 1)
        let letters = atLeast(UInt8(ascii: "a")) & ~atLeast(UInt8(ascii: "f") + 1)
        guard digits | letters == highs else { return nil }
        // '0'…'9' and 'a'…'f' end in 0…9 and 1…6: a letter's low nibble needs 9 more.
        var nibbles = (word & (ones &* 0x0F)) &+ (letters >> 7) &* 9
        // Pack: pairs into bytes, bytes into 16-bit halves, halves into 32 bits, first digit highest.
        nibbles = (nibbles & 0x000F_000F_000F_000F) << 4 | (nibbles >> 8) & 0x000F_000F_000F_000F
        nibbles = (nibbles & 0x0000_00FF_0000_00FF) << 8 | (nibbles >> 16) & 0x0000_00FF_0000_00FF
        return UInt32(truncatingIfNeeded: (nibbles & 0xFFFF) << 16 | (nibbles >> 32) & 0xFFFF)
    }

    /// Orders GUIDs by their bits, as their lower-case text sorts.
    public static func < (lhs: EdmGuid, rhs: EdmGuid) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }

    /// The lower-case 8-4-4-4-12 form.
    public var description: String {
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

}
