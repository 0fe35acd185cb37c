/// The limits Azure puts on keys and on an entity's size, checked by the validator (as findings) and by
/// the Table service's request reading (as errors): one definition, so both refuse the same entities.
extension Entity {
    /// What Azure would refuse in a key: `/ \ # ?`, control characters (U+0000-U+001F,
    /// U+007F-U+009F), or more than 1 KiB (the service counts UTF-16).
    package static func keyProblem(_ key: String) -> String? {
        // The common case (printable ASCII without / \ # ?) in one tight loop over the bytes.
        var key = key
        let plain = key.withUTF8 { bytes -> Bool in
            for byte in bytes {
                if byte &- 0x20 >= 0x5F || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\")
                    || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "?")
                {
                    return false
                }
            }
            return bytes.count * 2 <= maximumKeyBytes
        }
        return plain ? nil : slowKeyProblem(key)
    }

    private static func slowKeyProblem(_ key: String) -> String? {
        var previous: UInt8 = 0
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "#"), UInt8(ascii: "?"):
                return "contains '\(Character(Unicode.Scalar(byte)))', which Azure does not allow in keys"
            case 0..<0x20, 0x7F:
                return "contains a control character (U+\(hex(byte))), which Azure does not allow in keys"
            case 0x80...0x9F where previous == 0xC2:
                return "contains a control character (U+00\(hex(byte))), which Azure does not allow in keys"
            default: previous = byte
            }
        }
        // UTF-16 is never longer than UTF-8 in code units: count exactly only when it may matter.
        if key.utf8.count * 2 > maximumKeyBytes, key.utf16.count * 2 > maximumKeyBytes {
            return "is \(key.utf16.count * 2) bytes as UTF-16; Azure allows at most 1 KiB"
        }
        return nil
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "000" + digits : "00" + digits
    }

    /// An entity's size by Azure's published formula: 4 + 2 × (PartitionKey + RowKey lengths) +
    /// for each property 8 + 2 × name length + the value's size (String 4 + 2 × length, Binary 4 +
    /// bytes, Guid 16, Int64/Double/DateTime 8, Int32 4, Boolean 1). Lengths in UTF-16 units;
    /// `exact: false` uses UTF-8 lengths, never less.
    package func azureSize(exact: Bool) -> Int {
        func length(_ text: String) -> Int { exact ? text.utf16.count : text.utf8.count }
        var total = 4 + 2 * (length(partitionKey) + length(rowKey))
        for property in properties {
            total += 8 + 2 * length(property.name)
            switch property.value {
            case .string(let text): total += 4 + 2 * length(text)
            case .binary(let bytes): total += 4 + bytes.count
            case .guid: total += 16
            case .int64, .double, .dateTime: total += 8
            case .int32: total += 4
            case .boolean: total += 1
            }
        }
        return total
    }
}
