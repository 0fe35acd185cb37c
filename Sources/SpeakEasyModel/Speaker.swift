/// A speaker: an entity in the `speakers` partition with Name, Title, Bio and ImageUrl.
package struct Speaker: Hashable, Sendable {
    /// The RowKey: a lower-case GUID that events reference as `SpeakerKey`.
    package var key: String
    package var name: String
    package var title: String
    package var bio: String
    /// The URL of the speaker's photo blob.
    package var imageUrl: String

    package init(key: String, name: String, title: String, bio: String, imageUrl: String) {
        self.key = key
        self.name = name
        self.title = title
        self.bio = bio
        self.imageUrl = imageUrl
    }

    /// Reads a speaker from an entity, checking partition, property names and types.
    package init(entity: Entity) throws(EntityMappingError) {
        guard entity.partitionKey == DataContract.speakersPartition else {
            throw entity.mappingError(
                "PartitionKey is '\(entity.partitionKey)', expected '\(DataContract.speakersPartition)'"
            )
        }
        self.init(
            key: entity.rowKey,
            name: try entity.requiredString("Name"),
            title: try entity.requiredString("Title"),
            bio: try entity.requiredString("Bio"),
            imageUrl: try entity.requiredString("ImageUrl")
        )
    }

    /// The entity the app reads, properties in contract order.
    package var entity: Entity {
        Entity(
            partitionKey: DataContract.speakersPartition,
            rowKey: key,
            properties: [
                Property("Name", .string(name)),
                Property("Title", .string(title)),
                Property("Bio", .string(bio)),
                Property("ImageUrl", .string(imageUrl)),
            ]
        )
    }
}
