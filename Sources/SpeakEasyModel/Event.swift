/// An event: an entity in the `Events` partition, dated, placed, and given by one speaker.
package struct Event: Hashable, Sendable {
    /// The RowKey: a lower-case GUID.
    package var key: String
    package var date: EdmDateTime
    package var name: String
    package var location: String
    package var description: String
    /// The RowKey of the speaker.
    package var speakerKey: String
    /// The speaker's `Name`, denormalised for the app.
    package var speakerName: String

    package init(
        key: String,
        date: EdmDateTime,
        name: String,
        location: String,
        description: String,
        speakerKey: String,
        speakerName: String
    ) {
        self.key = key
        self.date = date
        self.name = name
        self.location = location
        self.description = description
        self.speakerKey = speakerKey
        self.speakerName = speakerName
    }

    /// Reads an event from an entity, checking partition, property names and types.
    package init(entity: Entity) throws(EntityMappingError) {
        guard entity.partitionKey == DataContract.eventsPartition else {
            throw entity.mappingError(
                "PartitionKey is '\(entity.partitionKey)', expected '\(DataContract.eventsPartition)'"
            )
        }
        guard let dateValue = entity["EventDate"] else { throw entity.mappingError("EventDate is missing") }
        guard case .dateTime(let date) = dateValue else {
            throw entity.mappingError("EventDate is \(dateValue.type.rawValue), expected Edm.DateTime")
        }
        self.init(
            key: entity.rowKey,
            date: date,
            name: try entity.requiredString("EventName"),
            location: try entity.requiredString("EventLocation"),
            description: try entity.requiredString("EventDescription"),
            speakerKey: try entity.requiredString("SpeakerKey"),
            speakerName: try entity.requiredString("SpeakerName")
        )
    }

    /// The entity the app reads, properties in contract order.
    package var entity: Entity {
        Entity(
            partitionKey: DataContract.eventsPartition,
            rowKey: key,
            properties: [
                Property("EventDate", .dateTime(date)),
                Property("EventName", .string(name)),
                Property("EventLocation", .string(location)),
                Property("EventDescription", .string(description)),
                Property("SpeakerKey", .string(speakerKey)),
                Property("SpeakerName", .string(speakerName)),
            ]
        )
    }
}
