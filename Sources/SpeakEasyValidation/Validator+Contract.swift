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
            .contractKeyChars,
            "\(name) '\(Self.excerpt(Self.printable(key)))' \(problem)",
            at: location(source: sourceNumber, line: line, partitionKey: entity.partitionKey, rowKey: entity.rowKey)
        )
    }

    /// What Azure would refuse in a key (``Entity/keyProblem(_:)``).
    static func keyProblem(_ key: String) -> String? { Entity.keyProblem(key) }

    /// Control characters shown as `\u{…}`, so a message stays one printable line.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return text
        }
        return text.unicodeScalars.map {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? "\\u{\(String($0.value, radix: 16))}" : String($0)
        }.joined()
    }

    mutating func checkSize(_ entity: Entity, line: UInt32) {
        guard log.isOn(.contractEntitySize) else { return }
        var here: FindingLocation {
            location(source: sourceNumber, line: line, partitionKey: entity.partitionKey, rowKey: entity.rowKey)
        }
        if entity.properties.count > Entity.maximumProperties {
            log.add(
                .contractEntitySize,
                "entity has \(entity.properties.count) properties; Azure allows at most \(Entity.maximumProperties)",
                at: here
            )
        }
        // An upper bound first (UTF-8 lengths are O(1)); the exact size only when it may be too big.
        if Self.size(of: entity, exact: false) > Entity.maximumBytes {
            let exact = Self.size(of: entity, exact: true)
            if exact > Entity.maximumBytes {
                log.add(
                    .contractEntitySize,
                    "entity is \(exact) bytes as Azure counts them; the limit is 1 MiB (\(Entity.maximumBytes))",
                    at: here
                )
            }
        }
    }

    /// An entity's size as Azure counts it (``Entity/azureSize(exact:)``).
    static func size(of entity: Entity, exact: Bool) -> Int { entity.azureSize(exact: exact) }
}
