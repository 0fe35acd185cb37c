import SpeakEasyData
import TestSupport
import Testing

@Suite("Speaker ⇄ entity mapping")
struct SpeakerMappingTests {
    static let speaker = Speaker(
        key: "c9da6455-213d-42c9-9a79-3e9149a57833",
        name: "Bart Tubalinal",
        title: "Solutions Architect",
        bio: "Bart Tubalinal is a Solutions Architect in the Lorem ipsum",
        imageUrl: "http://127.0.0.1:10000/speakeasy/speakers/BTubalinal.jpg"
    )

    @Test("a speaker becomes the entity the app reads, and back")
    func roundTrip() throws {
        let entity = Self.speaker.entity
        #expect(entity.partitionKey == "speakers")
        #expect(entity.rowKey == Self.speaker.key)
        #expect(entity.timestamp == nil && entity.etag == nil)
        #expect(entity.properties.map(\.name) == ["Name", "Title", "Bio", "ImageUrl"])
        #expect(entity.properties.allSatisfy { $0.value.type == .string })
        #expect(entity["Name"] == .string("Bart Tubalinal"))
        #expect(entity["ImageUrl"] == .string(Self.speaker.imageUrl))
        #expect(try Speaker(entity: entity) == Self.speaker)
    }

    @Test("extra properties, Timestamp and ETag do not stop a speaker from being read")
    func extras() throws {
        var entity = Self.speaker.entity
        entity.timestamp = .at("2024-05-01T10:00:01.1234567Z")
        entity.etag = "W/\"x\""
        entity.properties.insert(Property("Twitter", .string("@bart")), at: 0)
        #expect(try Speaker(entity: entity) == Self.speaker)
    }

    @Test("a wrong partition is named in the error")
    func wrongPartition() {
        var entity = Self.speaker.entity
        entity.partitionKey = "Events"
        let error = #expect(throws: EntityMappingError.self) { try Speaker(entity: entity) }
        #expect(error?.partitionKey == "Events")
        #expect(error?.rowKey == Self.speaker.key)
        #expect(error?.reason.contains("PartitionKey") == true)
        #expect(error?.reason.contains("speakers") == true)
    }

    @Test("a missing property is named in the error", arguments: ["Name", "Title", "Bio", "ImageUrl"])
    func missingProperty(name: String) {
        var entity = Self.speaker.entity
        entity.properties.removeAll { $0.name == name }
        let error = #expect(throws: EntityMappingError.self) { try Speaker(entity: entity) }
        #expect(error?.reason.contains(name) == true)
        #expect(error?.reason.contains("missing") == true)
        #expect(error?.description.contains(Self.speaker.key) == true)
    }

    @Test("a property of the wrong type is named in the error", arguments: ["Name", "Title", "Bio", "ImageUrl"])
    func wrongType(name: String) {
        var entity = Self.speaker.entity
        let index = entity.properties.firstIndex { $0.name == name }!
        entity.properties[index].value = .int32(42)
        let error = #expect(throws: EntityMappingError.self) { try Speaker(entity: entity) }
        #expect(error?.reason.contains(name) == true)
        #expect(error?.reason.contains("Edm.Int32") == true)
    }

    @Test("property names are case-sensitive")
    func caseSensitive() {
        var entity = Self.speaker.entity
        entity.properties[0].name = "name"
        let error = #expect(throws: EntityMappingError.self) { try Speaker(entity: entity) }
        #expect(error?.reason.contains("Name") == true)
    }
}
