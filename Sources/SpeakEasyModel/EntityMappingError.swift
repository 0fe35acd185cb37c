package import SpeakEasyCore

/// Why an entity is not a valid `Speaker` or `Event` under the data contract.
package struct EntityMappingError: ClassifiedError, Sendable, Equatable {
    package let partitionKey: String
    package let rowKey: String
    package let reason: String
    package var kind: FailureKind { .malformedInput }

    package var description: String { "entity (PartitionKey '\(partitionKey)', RowKey '\(rowKey)'): \(reason)" }
}

extension Entity {
    /// The string value of a required property, or a mapping error naming it.
    package func requiredString(_ name: String) throws(EntityMappingError) -> String {
        guard let value = self[name] else { throw mappingError("\(name) is missing") }
        guard case .string(let text) = value else {
            throw mappingError("\(name) is \(value.type.rawValue), expected Edm.String")
        }
        return text
    }

    package func mappingError(_ reason: String) -> EntityMappingError {
        EntityMappingError(partitionKey: partitionKey, rowKey: rowKey, reason: reason)
    }
}
