import SpeakEasyData
import TestSupport
import Testing

@Suite("Event ⇄ entity mapping")
struct EventMappingTests {
    static let event = Event(
        key: "dd3cb8f8-93b7-44e2-b74a-c0aa3b27a6d2",
        date: .at("2026-03-01T09:30:00.0000001Z"),
        name: "iOS Meetup",
        location: "Chicago, IL",
        description: "Lorem ipsum",
        speakerKey: "c9da6455-213d-42c9-9a79-3e9149a57833",
        speakerName: "Bart Tubalinal"
    )

    @Test("an event becomes the entity the app reads, and back")
    func roundTrip() throws {
        let entity = Self.event.entity
        #expect(entity.partitionKey == "Events")
        #expect(entity.rowKey == Self.event.key)
        #expect(
            entity.properties.map(\.name) == [
                "EventDate", "EventName", "EventLocation", "EventDescription", "SpeakerKey", "SpeakerName",
            ]
        )
        #expect(entity["EventDate"] == .dateTime(.at("2026-03-01T09:30:00.0000001Z")))
        #expect(entity.properties.dropFirst().allSatisfy { $0.value.type == .string })
        #expect(entity["SpeakerKey"] == .string(Self.event.speakerKey))
        #expect(try Event(entity: entity) == Self.event)
    }

    @Test("a wrong partition is named in the error", arguments: ["speakers", "events", ""])
    func wrongPartition(partition: String) {
        var entity = Self.event.entity
        entity.partitionKey = partition
        let error = #expect(throws: EntityMappingError.self) { try Event(entity: entity) }
        #expect(error?.reason.contains("PartitionKey") == true)
        #expect(error?.reason.contains("'Events'") == true)
    }

    @Test(
        "a missing property is named in the error",
        arguments: ["EventDate", "EventName", "EventLocation", "EventDescription", "SpeakerKey", "SpeakerName"]
    )
    func missingProperty(name: String) {
        var entity = Self.event.entity
        entity.properties.removeAll { $0.name == name }
        let error = #expect(throws: EntityMappingError.self) { try Event(entity: entity) }
        #expect(error?.reason.contains(name) == true)
        #expect(error?.reason.contains("missing") == true)
    }

    @Test("an EventDate that is a string is named in the error, with both types")
    func dateAsString() {
        var entity = Self.event.entity
        entity.properties[0].value = .string("2026-03-01T09:30:00.0000000Z")
        let error = #expect(throws: EntityMappingError.self) { try Event(entity: entity) }
        #expect(error?.reason.contains("EventDate") == true)
        #expect(error?.reason.contains("Edm.String") == true)
        #expect(error?.reason.contains("Edm.DateTime") == true)
    }

    @Test(
        "a string property of the wrong type is named in the error",
        arguments: ["EventName", "EventLocation", "EventDescription", "SpeakerKey", "SpeakerName"]
    )
    func wrongType(name: String) {
        var entity = Self.event.entity
        let index = entity.properties.firstIndex { $0.name == name }!
        entity.properties[index].value = .guid(EdmGuid(high: 1, low: 2))
        let error = #expect(throws: EntityMappingError.self) { try Event(entity: entity) }
        #expect(error?.reason.contains(name) == true)
        #expect(error?.reason.contains("Edm.Guid") == true)
    }
}
