import SpeakEasyFormats
package import SpeakEasyModel
package import SpeakEasyStorage

/// Encodes drawn events straight into their stored JSON, from fragments encoded once per catalog item
/// and speaker: the same bytes as `EncodedEntity(generator.event(for: draw).entity)` (tested), without
/// building an `Event`, an `Entity` or escaping the long description a million times.
package struct EventEncoder: Sendable {
    private let window: DateWindow
    /// `{"EventDate@odata.type":"Edm.DateTime","EventDate":`
    private let head: [UInt8]
    /// `,"EventName":"…"` per event name, and likewise below.
    private let names: [[UInt8]]
    private let locations: [[UInt8]]
    private let description: [UInt8]
    /// `,"SpeakerKey":"…","SpeakerName":"…"}` per speaker: the end of the object.
    private let speakerTails: [[UInt8]]
    /// Each speaker's RowKey, for the statistics.
    package let speakerKeys: [String]

    package init(_ generator: SeedGenerator) {
        func fragment(_ properties: Property...) -> [UInt8] {
            var out: [UInt8] = []
            for property in properties {
                out.append(UInt8(ascii: ","))
                JSONEntityWriter.appendProperty(property, metadata: .minimal, to: &out)
            }
            return out
        }
        window = generator.window
        var head = [UInt8(ascii: "{")]
        JSONEntityWriter.appendPropertyHead("EventDate", of: .dateTime(window.first), metadata: .minimal, to: &head)
        self.head = head
        names = generator.catalog.eventNames.map { fragment(Property("EventName", .string($0))) }
        locations = generator.catalog.locations.map { fragment(Property("EventLocation", .string($0.name))) }
        description = fragment(Property("EventDescription", .string(generator.catalog.eventDescription)))
        speakerTails = generator.speakers.map {
            fragment(Property("SpeakerKey", .string($0.speaker.key)), Property("SpeakerName", .string($0.speaker.name)))
                + [UInt8(ascii: "}")]
        }
        speakerKeys = generator.speakers.map(\.speaker.key)
    }

    package func date(of draw: SeedGenerator.EventDraw) -> EdmDateTime { window.date(at: draw.slot) }

    package func encode(_ draw: SeedGenerator.EventDraw) -> EncodedEntity {
        let name = names[Int(draw.name)]
        let location = locations[Int(draw.location)]
        let tail = speakerTails[Int(draw.speaker)]
        var json: [UInt8] = []
        json.reserveCapacity(head.count + 30 + name.count + location.count + description.count + tail.count)
        json.append(contentsOf: head)
        json.append(UInt8(ascii: "\""))
        date(of: draw).append(to: &json)
        json.append(UInt8(ascii: "\""))
        json.append(contentsOf: name)
        json.append(contentsOf: location)
        json.append(contentsOf: description)
        json.append(contentsOf: tail)
        return EncodedEntity(partitionKey: DataContract.eventsPartition, rowKey: draw.key.description, properties: json)
    }

    /// The digest of an event ``encode(_:)`` made: its canonical form has the same fragments with the
    /// properties sorted by name (EventDate, EventDescription, EventLocation, EventName, SpeakerKey,
    /// SpeakerName), assembled in `scratch` so a million events need no allocation each.
    package func digest(of draw: SeedGenerator.EventDraw, entity: EncodedEntity, scratch: inout [UInt8]) -> EntityDigest
    {
        // The head and the quoted date are the stored JSON's first bytes: copied, not formatted again.
        let dateEnd = entity.properties[(head.count + 1)...].firstIndex(of: UInt8(ascii: "\""))! + 1
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: entity.properties[..<dateEnd])
        scratch.append(contentsOf: description)
        scratch.append(contentsOf: locations[Int(draw.location)])
        scratch.append(contentsOf: names[Int(draw.name)])
        scratch.append(contentsOf: speakerTails[Int(draw.speaker)])
        return EntityDigest(partitionKey: entity.partitionKey, rowKey: entity.rowKey, canonicalProperties: scratch)
    }
}
