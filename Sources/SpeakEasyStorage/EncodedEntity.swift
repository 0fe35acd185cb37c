package import SpeakEasyFormats
package import SpeakEasyModel

/// An entity ready for a store: its keys and its properties as an Azure Table JSON object
/// (minimal metadata, so every type survives).
///
/// Both backends need this form — the SQLite account stores it, Azure sends it — so callers encode
/// once, on their own thread, while the store writes the previous batch.
package struct EncodedEntity: Hashable, Sendable {
    package var partitionKey: String
    package var rowKey: String
    /// `{"Prop":value,"Prop2@odata.type":"Edm.Int64","Prop2":"1",…}` in UTF-8.
    package var properties: [UInt8]

    /// Takes `properties` as already-encoded minimal-metadata JSON.
    package init(partitionKey: String, rowKey: String, properties: [UInt8]) {
        self.partitionKey = partitionKey
        self.rowKey = rowKey
        self.properties = properties
    }

    package init(_ entity: Entity) {
        partitionKey = entity.partitionKey
        rowKey = entity.rowKey
        properties = []
        // Room for the usual case in one allocation: a batch of a million entities should not carry
        // the slack of repeated doubling.
        var estimate = 2
        for property in entity.properties {
            estimate += property.name.utf8.count + 4
            if case .string(let text) = property.value {
                estimate += text.utf8.count + 2
            } else {
                estimate += property.name.utf8.count + 60
            }
        }
        properties.reserveCapacity(estimate)
        JSONEntityWriter.appendPropertiesObject(entity.properties, to: &properties)
    }

    /// Decodes the properties back into an entity (without Timestamp and ETag).
    package func decoded() throws(JSONSyntaxError) -> Entity {
        Entity(
            partitionKey: partitionKey,
            rowKey: rowKey,
            properties: try JSONEntityReader.properties(fromObject: properties)
        )
    }
}
