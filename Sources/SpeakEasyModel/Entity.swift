/// One named, typed property of an entity.
public struct Property: Hashable, Sendable {
    /// The property's name: a C# identifier, unique in its entity.
    public var name: String
    /// The typed value.
    public var value: EdmValue

    /// A property named `name` that holds `value`.
    ///
    /// ```swift
    /// Property("EventDate", .dateTime(date))
    /// ```
    public init(_ name: String, _ value: EdmValue) {
        self.name = name
        self.value = value
    }
}

/// An Azure table entity: keys, the store's Timestamp and ETag, and an ordered list of typed properties.
///
/// Everything in the toolkit flows as entities.
public struct Entity: Hashable, Sendable {
    /// The partition key: entities of one partition are stored together, and only they can be written in
    /// one transaction group.
    public var partitionKey: String
    /// The row key, unique in its partition.
    public var rowKey: String
    /// Set by the store on every write; not part of the entity's content.
    public var timestamp: EdmDateTime?
    /// Set by the store on every write; not part of the entity's content.
    public var etag: String?
    /// The properties besides the keys, Timestamp and ETag, in the order they were read or set.
    public var properties: [Property]

    /// An entity with its keys and properties; the store sets `timestamp` and `etag`.
    ///
    /// ```swift
    /// let speaker = Entity(
    ///     partitionKey: "speakers",
    ///     rowKey: "BTubalinal",
    ///     properties: [Property("Name", .string("Bea Tubalinal"))]
    /// )
    /// ```
    public init(
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
    public subscript(name: String) -> EdmValue? {
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
