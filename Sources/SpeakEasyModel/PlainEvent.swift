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
}

extension PlainEvent {
    /// The properties of the contract's events, as readers tell them apart.
    package enum Field: String {
        case eventDate = "EventDate"
        case eventName = "EventName"
        case eventLocation = "EventLocation"
        case eventDescription = "EventDescription"
        case speakerKey = "SpeakerKey"
        case speakerName = "SpeakerName"
    }

    /// What a reader has found of a plain event so far, property by property; ``event`` is the event
    /// once everything is there.
    package struct Parts {
        package var key: EdmGuid?
        package var date: EdmDateTime?
        package var name: String?, location: String?, speakerKey: String?, speakerName: String?
        package var hasDescription = false
        /// A string that may be blank: the entity path judges it (``Validator`` reports blank strings).
        private var inDoubt = false
        /// Azure's size formula (``Validator/size(of:exact:)``) over UTF-8 lengths, which are never
        /// less than UTF-16's: the keys and EventDate from the start, each string as it comes.
        private var size = 4 + 2 * (DataContract.eventsPartition.utf8.count + 36) + (8 + 2 * 9 + 8)

        package init() {}

        /// A string property; the description's length only (nobody compares it).
        package mutating func set(_ field: Field, _ value: String) {
            if !Self.surelyNotBlank(value.utf8.first) { inDoubt = true }
            switch field {
            case .eventName: name = value
            case .eventLocation: location = value
            case .speakerKey: speakerKey = value
            case .speakerName: speakerName = value
            case .eventDate, .eventDescription: preconditionFailure("\(field) is not kept as a string")
            }
            count(field, length: value.utf8.count)
        }

        package mutating func setDescription(length: Int, first: UInt8?) {
            hasDescription = true
            if !Self.surelyNotBlank(first) { inDoubt = true }
            count(.eventDescription, length: length)
        }

        /// A string whose first byte is visible ASCII is not blank; anything else may be (empty, a
        /// space, U+00A0…) and is left to the entity path. ``Validator`` decides blankness by the same byte first.
        package static func surelyNotBlank(_ first: UInt8?) -> Bool {
            guard let first else { return false }
            return first > 0x20 && first < 0x7F
        }

        private mutating func count(_ field: Field, length: Int) {
            size += 8 + 2 * field.rawValue.utf8.count + 4 + 2 * length
        }

        /// The event, when every property is there and Azure's size limit is far.
        package var event: PlainEvent? {
            guard hasDescription, !inDoubt, size <= Entity.maximumBytes, let key, let date, let name, let location,
                let speakerKey, let speakerName
            else { return nil }
            return PlainEvent(
                key: key,
                date: date,
                name: name,
                location: location,
                speakerKey: speakerKey,
                speakerName: speakerName
            )
        }
    }
}
