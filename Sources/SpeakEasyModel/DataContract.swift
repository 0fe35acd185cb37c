/// The names the SpeakEasy app reads: one table, two partitions, one blob container.
public enum DataContract {
    /// The table holding both partitions.
    public static let table = "events"
    /// PartitionKey of speakers.
    public static let speakersPartition = "speakers"
    /// PartitionKey of events (capital E, as the app queries it).
    public static let eventsPartition = "Events"
    /// Blob container of speaker photos, readable anonymously.
    public static let photoContainer = "speakers"
    /// Properties the app reads with a type other than Edm.String (all the others are strings): what a
    /// reader of an untyped format (plain CSV) types them as.
    package static let nonStringProperties: [String: EdmType] = ["EventDate": .dateTime]
}
