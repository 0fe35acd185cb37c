import SpeakEasyModel

/// The contract's limits on keys and entity size, as Azure Table Storage enforces them.
extension Validator {
    mutating func checkKeys(_ entity: Entity, line: UInt32) {
        guard log.isOn(.contractKeyChars) else { return }
        checkKey("PartitionKey", entity.partitionKey, of: entity, line: line)
        checkKey("RowKey", entity.rowKey, of: entity, line: line)
    }

    private mutating func checkKey(_ name: String, _ key: String, of entity: Entity, line: UInt32) {
        guard let problem = Self.keyProblem(key) else { return }
        log.add(
            .contractKeyChars, "\(name) '\(Self.excerpt(Self.printable(key)))' \(problem)",
            at: location(source: sourceNumber, line: line, partitionKey: entity.partitionKey, rowKey: entity.rowKey))
    }

    /// What Azure would refuse in a key: `/ \ # ?`, control characters (U+0000-U+001F,
    /// U+007F-U+009F), or more than 1 KiB (the service counts UTF-16).
    static func keyProblem(_ key: String) -> String? {
        // The common case (printable ASCII without / \ # ?) in one tight loop over the bytes.
        var key = key
        let plain = key.withUTF8 { bytes -> Bool in
            for byte in bytes {
                if byte &- 0x20 >= 0x5F || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "?") {
                    return false
                }
            }
            return bytes.count * 2 <= Entity.maximumKeyBytes
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
        if key.utf8.count * 2 > Entity.maximumKeyBytes, key.utf16.count * 2 > Entity.maximumKeyBytes {
            return "is \(key.utf16.count * 2) bytes as UTF-16; Azure allows at most 1 KiB"
        }
        return nil
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "000" + digits : "00" + digits
    }

    /// Control characters shown as `\u{…}`, so a message stays one printable line.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else { return text }
        return text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }.joined()
    }

    mutating func checkSize(_ entity: Entity, line: UInt32) {
        guard log.isOn(.contractEntitySize) else { return }
        var here: FindingLocation { location(source: sourceNumber, line: line, partitionKey: entity.partitionKey, rowKey: entity.rowKey) }
        if entity.properties.count > Entity.maximumProperties {
            log.add(.contractEntitySize, "entity has \(entity.properties.count) properties; Azure allows at most \(Entity.maximumProperties)", at: here)
        }
        // An upper bound first (UTF-8 lengths are O(1)); the exact size only when it may be too big.
        if Self.size(of: entity, exact: false) > Entity.maximumBytes {
            let exact = Self.size(of: entity, exact: true)
            if exact > Entity.maximumBytes {
                log.add(.contractEntitySize, "entity is \(exact) bytes as Azure counts them; the limit is 1 MiB (\(Entity.maximumBytes))", at: here)
            }
        }
    }

    /// An entity's size by Azure's published formula: 4 + 2 × (PartitionKey + RowKey lengths) +
    /// for each property 8 + 2 × name length + the value's size (String 4 + 2 × length, Binary 4 +
    /// bytes, Guid 16, Int64/Double/DateTime 8, Int32 4, Boolean 1). Lengths in UTF-16 units;
    /// `exact: false` uses UTF-8 lengths, never less.
    static func size(of entity: Entity, exact: Bool) -> Int {
        func length(_ text: String) -> Int { exact ? text.utf16.count : text.utf8.count }
        var total = 4 + 2 * (length(entity.partitionKey) + length(entity.rowKey))
        for property in entity.properties {
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
