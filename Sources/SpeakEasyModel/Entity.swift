/// One named, typed property of an entity.
package struct Property: Hashable, Sendable {
    package var name: String
    package var value: EdmValue

    package init(_ name: String, _ value: EdmValue) {
        self.name = name
        self.value = value
    }
}

/// An Azure table entity: keys, the store's Timestamp and ETag, and an ordered list of typed properties.
///
/// Everything in the toolkit flows as entities; `Speaker` and `Event` are typed views over them.
package struct Entity: Hashable, Sendable {
    package var partitionKey: String
    package var rowKey: String
    /// Set by the store on every write; not part of the entity's content.
    package var timestamp: EdmDateTime?
    /// Set by the store on every write; not part of the entity's content.
    package var etag: String?
    package var properties: [Property]

    package init(
        partitionKey: String,
        rowKey: String,
        timestamp: EdmDateTime? = nil,
        etag: String? = nil,
        properties: [Property] = []
    ) {
        self.partitionKey = partitionKey
        self.rowKey = rowKey
        self.timestamp = timestamp
        self.etag = etag
        self.properties = properties
    }

    /// The value of the named property, if present.
    package subscript(name: String) -> EdmValue? {
        properties.first { $0.name == name }?.value
    }

    /// The same entity without the store's Timestamp and ETag, for comparing content.
    package var content: Entity { Entity(partitionKey: partitionKey, rowKey: rowKey, properties: properties) }

    /// Azure's merge: properties of `update` replace or join this entity's, the others stay.
    package func merging(_ update: Entity) -> Entity {
        var merged = self
        for property in update.properties {
            if let index = merged.properties.firstIndex(where: { $0.name == property.name }) {
                merged.properties[index].value = property.value
            } else {
                merged.properties.append(property)
            }
        }
        return merged
    }
}

/// Azure's limits: 1 KiB per key, 1 MiB per entity, 252 properties besides the system ones. Here in
/// the model, not in the validator that reports them, because readers below the validator use them
/// too (a plain event is only handed over far from the size limit).
extension Entity {
    package static let maximumKeyBytes = 1024
    package static let maximumBytes = 1 << 20
    package static let maximumProperties = 252
}
