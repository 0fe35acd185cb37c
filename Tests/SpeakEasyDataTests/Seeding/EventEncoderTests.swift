import SpeakEasyData
import Testing

@Suite("EventEncoder and key-ordered draws")
struct EventEncoderTests {
    static func generator(events: Int, speakers: Int = 8, resolution: DateResolution = .minute) throws -> SeedGenerator
    {
        try SeedGenerator(
            catalog: SampleCatalog(directory: TestPaths.samples),
            options: SeedGeneratorTests.options(seed: 7, events: events, speakers: speakers, resolution: resolution)
        )
    }

    @Test(
        "encodes every draw to the bytes the generic JSON writer gives, and its canonical digest",
        arguments: [DateResolution.day, .tick]
    )
    func sameBytesAsGenericWriter(resolution: DateResolution) throws {
        let generator = try Self.generator(events: 500, speakers: 40, resolution: resolution)
        let encoder = EventEncoder(generator)
        var scratch: [UInt8] = []
        for draw in generator.eventDrawsInKeyOrder() {
            let event = generator.event(for: draw)
            let encoded = encoder.encode(draw)
            #expect(encoded == EncodedEntity(event.entity))
            #expect(
                encoder.digest(of: draw, entity: encoded, scratch: &scratch) == EntityDigest(event.entity),
                "the canonical digest, from fragments"
            )
            #expect(encoder.date(of: draw) == event.date)
            #expect(encoder.speakerKeys[Int(draw.speaker)] == event.speakerKey)
        }
    }

    @Test("key order holds the same events as draw order, sorted by RowKey")
    func keyOrderIsASortedPermutation() throws {
        let generator = try Self.generator(events: 3_000)
        var iterator = generator.events()
        var drawOrder: [Event] = []
        while let event = iterator.next() { drawOrder.append(event) }
        let keyOrder = generator.eventDrawsInKeyOrder().map(generator.event(for:))
        #expect(keyOrder.map(\.key) == keyOrder.map(\.key).sorted())
        #expect(keyOrder.map(\.key) != drawOrder.map(\.key))
        #expect(Set(keyOrder) == Set(drawOrder))
        #expect(keyOrder.count == drawOrder.count)
    }

    @Test("speaker names that need JSON escaping are escaped as the writer escapes them")
    func escapedFragments() throws {
        var catalog = try SampleCatalog(directory: TestPaths.samples)
        catalog.eventNames = ["Tab\there \"quoted\" \\ back", "Ünïcödé 🎤"]
        catalog.locations = [SampleLocation(name: "Line\nbreak", utcOffsetMinutes: -300)]
        catalog.eventDescription = "\u{1}control"
        let generator = try SeedGenerator(catalog: catalog, options: SeedGeneratorTests.options(events: 10))
        let encoder = EventEncoder(generator)
        for draw in generator.eventDrawsInKeyOrder() {
            #expect(encoder.encode(draw) == EncodedEntity(generator.event(for: draw).entity))
        }
    }
}
