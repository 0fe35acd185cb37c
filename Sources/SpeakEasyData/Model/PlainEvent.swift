/// An event entity exactly in the contract's shape, reduced to what validation compares.
///
/// The shape: PartitionKey `Events`, a lower-case GUID RowKey, `EventDate` an `Edm.DateTime`, the five
/// string properties `EventName`, `EventLocation`, `EventDescription`, `SpeakerKey` and `SpeakerName`
/// once each, nothing else besides the system properties, and far below Azure's size limit. Such an
/// event breaks no rule of its own except by its date, so a reader asked for plain events
/// (``EntityFiles/ReadOptions/plainEvents``) can hand it over without building the entity: no String
/// for the description, no property list. Anything else comes as an ``Entity``, and is checked as one.
package struct PlainEvent: Sendable {
    /// The RowKey, which was written lower-case.
    package var key: EdmGuid
    package var date: EdmDateTime
    package var name: String
    package var location: String
    package var speakerKey: String
    package var speakerName: String

    package init(key: EdmGuid, date: EdmDateTime, name: String, location: String, speakerKey: String, speakerName: String) {
        self.key = key
        self.date = date
        self.name = name
        self.location = location
        self.speakerKey = speakerKey
        self.speakerName = speakerName
    }
}
