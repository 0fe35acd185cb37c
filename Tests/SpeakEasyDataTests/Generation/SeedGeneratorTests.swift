import SpeakEasyData
import TestSupport
import Testing

@Suite("SeedGenerator")
struct SeedGeneratorTests {
    static let base = "http://127.0.0.1:10000/speakeasy/speakers/"

    static func options(
        seed: UInt64 = 42,
        events: Int = 100,
        speakers: Int = 8,
        from: String = "2026-01-01T00:00:00Z",
        cutoff: String = "2026-12-31T00:00:00Z",
        resolution: DateResolution = .minute,
        dateFormat: EventDateFormat = .app
    ) -> GeneratorOptions {
        GeneratorOptions(
            seed: seed,
            eventCount: events,
            speakerCount: speakers,
            from: .at(from),
            cutoff: .at(cutoff),
            resolution: resolution,
            dateFormat: dateFormat,
            photoBaseURL: base
        )
    }

    static func generate(_ options: GeneratorOptions) throws -> (SeedGenerator, [Event]) {
        let generator = try SeedGenerator(catalog: SampleCatalog(directory: TestPaths.samples), options: options)
        var iterator = generator.events()
        var events: [Event] = []
        while let event = iterator.next() { events.append(event) }
        return (generator, events)
    }

    struct Identity: Hashable {
        var name: String, location: String, speaker: String, date: EdmDateTime
        init(_ event: Event) {
            (name, location, speaker, date) = (event.name, event.location, event.speakerKey, event.date)
        }
    }

    @Test("exactly N events, unique by name, location, speaker and date", arguments: [0, 1, 100, 2_000])
    func exactUnique(count: Int) throws {
        let (generator, events) = try Self.generate(Self.options(events: count))
        #expect(events.count == count)
        #expect(Set(events.map(Identity.init)).count == count)
        #expect(Set(events.map(\.key)).count == count)
        let speakers = Dictionary(uniqueKeysWithValues: generator.speakers.map { ($0.speaker.key, $0.speaker.name) })
        for event in events {
            #expect(EdmGuid(event.key)?.description == event.key)
            #expect(speakers[event.speakerKey] == event.speakerName)
            #expect(event.description == generator.catalog.eventDescription)
            #expect(try Event(entity: event.entity) == event)
        }
    }

    @Test(
        "dates lie in [from, cutoff], on the resolution's steps plus one tick, so Azure serves all seven digits",
        arguments: DateResolution.allCases
    )
    func datesInWindow(resolution: DateResolution) throws {
        let options = Self.options(
            events: 500,
            from: "2026-01-01T10:20:30.1234567Z",
            cutoff: "2026-03-05T08:09:10.7654321Z",
            resolution: resolution
        )
        let (_, events) = try Self.generate(options)
        #expect(events.count == 500)
        for event in events {
            #expect(event.date >= options.from && event.date <= options.cutoff, "\(event.date)")
            #expect(event.date.survivesAzureTrimming, "\(event.date)")
            #expect(event.date.formattedTrimmed() == event.date.description, "\(event.date)")
            if resolution != .tick { #expect(event.date.ticks % resolution.ticks == 1, "\(event.date)") }
        }
        if resolution != .day { #expect(Set(events.map(\.date)).count > 100) }
    }

    @Test("--date-format azure: dates lie on the resolution grid itself", arguments: DateResolution.allCases)
    func azureDatesOnGrid(resolution: DateResolution) throws {
        let options = Self.options(
            events: 500,
            from: "2026-01-01T10:20:30.1234567Z",
            cutoff: "2026-03-05T08:09:10.7654321Z",
            resolution: resolution,
            dateFormat: .azure
        )
        let (_, events) = try Self.generate(options)
        #expect(events.count == 500)
        for event in events {
            #expect(event.date >= options.from && event.date <= options.cutoff, "\(event.date)")
            #expect(event.date.ticks % resolution.ticks == 0, "\(event.date)")
        }
    }

    @Test("a window that starts before 1601, which Azure refuses, is refused before anything is generated")
    func before1601() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        let error = #expect(throws: GenerationError.self) {
            try SeedGenerator(
                catalog: catalog,
                options: Self.options(from: "1500-01-01T00:00:00Z", cutoff: "2026-01-01T00:00:00Z")
            )
        }
        #expect(error?.reason.contains("1601") == true, "\(String(describing: error))")
        #expect(throws: Never.self) {
            try SeedGenerator(
                catalog: catalog,
                options: Self.options(from: "1601-01-01T00:00:00Z", cutoff: "1601-01-02T00:00:00Z")
            )
        }
    }

    @Test("more events than memory can hold are refused up front, with the estimate")
    func memoryBound() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        let physical = try #require(PhysicalMemory.bytes)
        let events = physical / 64 + 1_000_000
        let error = #expect(throws: GenerationError.self) {
            try SeedGenerator(
                catalog: catalog,
                options: Self.options(events: events, cutoff: "2126-01-01T00:00:00Z", resolution: .second)
            )
        }
        #expect(error?.reason.contains("memory") == true, "\(String(describing: error))")
        #expect(error?.reason.contains("GiB") == true, "\(String(describing: error))")
    }

    @Test("the same person has the same RowKey in every run, whatever the seed: the name-based GUID of its Name")
    func speakerKeysByName() throws {
        // Every name the pools give, so both runs hold the same people, drawn in another order.
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        let everyone =
            8
            + Set(catalog.firstNames.flatMap { first in catalog.lastNames.map { first + " " + $0 } }).subtracting(
                catalog.speakers.map(\.name)
            ).count
        let (a, _) = try Self.generate(Self.options(seed: 1, events: 0, speakers: everyone))
        let (b, _) = try Self.generate(Self.options(seed: 2, events: 0, speakers: everyone))
        let keysA = Dictionary(uniqueKeysWithValues: a.speakers.map { ($0.speaker.name, $0.speaker.key) })
        let keysB = Dictionary(uniqueKeysWithValues: b.speakers.map { ($0.speaker.name, $0.speaker.key) })
        #expect(keysA == keysB)
        #expect(Set(keysA.values).count == keysA.count)
        #expect(keysA["Bart Tubalinal"] == SeedGenerator.speakerKey(name: "Bart Tubalinal").description)
        let bart = try #require(EdmGuid(keysA["Bart Tubalinal"] ?? ""))
        #expect((bart.high >> 12) & 0xF == 5)
    }

    @Test(
        "the same event has the same RowKey in every run: every combination, drawn under two seeds, gives the same keys"
    )
    func eventKeysByIdentity() throws {
        let full = Self.options(
            seed: 1,
            events: 256,
            from: "2026-01-01T00:00:00Z",
            cutoff: "2026-01-01T23:59:59Z",
            resolution: .day
        )
        var other = full
        other.seed = 2
        let (_, a) = try Self.generate(full)
        let (_, b) = try Self.generate(other)
        #expect(a.map(\.key) != b.map(\.key))  // drawn in another order
        let byKeyA = Dictionary(uniqueKeysWithValues: a.map { ($0.key, Identity($0)) })
        let byKeyB = Dictionary(uniqueKeysWithValues: b.map { ($0.key, Identity($0)) })
        #expect(byKeyA == byKeyB)
    }

    @Test("every event name, location and speaker is drawn, the last of each list included")
    func coverage() throws {
        let (generator, events) = try Self.generate(Self.options(events: 2_000))
        #expect(Set(events.map(\.name)) == Set(generator.catalog.eventNames))
        #expect(Set(events.map(\.location)) == Set(generator.catalog.locations.map(\.name)))
        #expect(Set(events.map(\.speakerKey)) == Set(generator.speakers.map(\.speaker.key)))
        #expect(events.contains { $0.name == "SharePoint Saturdays" })
        #expect(events.contains { $0.location == "New York City, NY" })
        #expect(events.contains { $0.speakerName == "Ela Gardner" })
    }

    @Test("all distinct combinations can be drawn, one more is refused before anything is generated")
    func combinationLimit() throws {
        // One day at day resolution: its one date, 00:00 UTC on Thursday, is Wednesday evening in every sample location, so
        // neither "Mobile Mondays" nor "SharePoint Saturdays": 4 names × 8 locations × 8 speakers × 1 date = 256 events.
        let full = Self.options(
            events: 256,
            from: "2026-01-01T00:00:00Z",
            cutoff: "2026-01-01T23:59:59Z",
            resolution: .day
        )
        let (generator, events) = try Self.generate(full)
        #expect(generator.combinationCount == 256)
        #expect(Set(events.map(Identity.init)).count == 256)
        var tooMany = full
        tooMany.eventCount = 257
        let error = #expect(throws: GenerationError.self) {
            try SeedGenerator(catalog: SampleCatalog(directory: TestPaths.samples), options: tooMany)
        }
        #expect(error?.reason.contains("256") == true, "\(String(describing: error))")
        #expect(error?.kind == .usage)
    }

    @Test("a cutoff before the start is refused")
    func cutoffBeforeFrom() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        let error = #expect(throws: GenerationError.self) {
            try SeedGenerator(
                catalog: catalog,
                options: Self.options(from: "2026-02-01T00:00:00Z", cutoff: "2026-01-31T23:59:59Z")
            )
        }
        #expect(error?.reason.contains("before") == true, "\(String(describing: error))")
    }

    @Test("a window without a date at the resolution is refused")
    func emptyWindow() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        #expect(throws: GenerationError.self) {
            try SeedGenerator(
                catalog: catalog,
                options: Self.options(from: "2026-01-01T01:00:00Z", cutoff: "2026-01-01T02:00:00Z", resolution: .day)
            )
        }
    }

    @Test("impossible counts are refused", arguments: [(-1, 8), (10, 0), (10, -3), (10, 1 << 25), (10, 5_000)])
    func impossibleCounts(events: Int, speakers: Int) throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        #expect(throws: GenerationError.self) {
            try SeedGenerator(catalog: catalog, options: Self.options(events: events, speakers: speakers))
        }
    }

    @Test("the same seed gives identical data; another seed different data")
    func reproducible() throws {
        let (generatorA, a) = try Self.generate(Self.options(seed: 7, events: 300, speakers: 12))
        let (generatorB, b) = try Self.generate(Self.options(seed: 7, events: 300, speakers: 12))
        let (generatorC, c) = try Self.generate(Self.options(seed: 8, events: 300, speakers: 12))
        #expect(a == b)
        #expect(generatorA.speakers == generatorB.speakers)
        #expect(a != c)
        // the same people
        #expect(generatorA.speakers.prefix(8).map(\.speaker.key) == generatorC.speakers.prefix(8).map(\.speaker.key))
        #expect(generatorA.speakers.map(\.speaker.name) != generatorC.speakers.map(\.speaker.name))
        #expect(Set(a.map(\.key)).isDisjoint(with: c.map(\.key)))
    }

    @Test("the sample speakers come first, in catalog order, with their photos and the contract's fields")
    func sampleSpeakers() throws {
        let (generator, _) = try Self.generate(Self.options(events: 0, speakers: 8))
        #expect(generator.speakers.map(\.speaker.name) == generator.catalog.speakers.map(\.name))
        for (generated, sample) in zip(generator.speakers, generator.catalog.speakers) {
            #expect(generated.speaker.title == sample.title)
            #expect(generated.photo == sample.photo)
            #expect(generated.photoBlobName == sample.photoBlobName)
            #expect(generated.speaker.imageUrl == Self.base + sample.photoBlobName)
            #expect(generated.speaker.bio == generator.catalog.bio(name: sample.name, title: sample.title))
            #expect(EdmGuid(generated.speaker.key)?.description == generated.speaker.key)
        }
    }

    @Test("fewer speakers than samples take the first ones")
    func fewerSpeakers() throws {
        let (generator, events) = try Self.generate(Self.options(events: 50, speakers: 3))
        #expect(generator.speakers.map(\.speaker.name) == ["Bart Tubalinal", "Bert Johnson", "Travis Nielsen"])
        #expect(Set(events.map(\.speakerName)).isSubset(of: ["Bart Tubalinal", "Bert Johnson", "Travis Nielsen"]))
    }

    @Test("speakers beyond the samples get unique generated names and PNG photos")
    func generatedSpeakers() throws {
        let (generator, events) = try Self.generate(Self.options(events: 1_000, speakers: 40))
        #expect(generator.speakers.count == 40)
        let names = generator.speakers.map(\.speaker.name)
        #expect(Set(names).count == 40)
        #expect(Set(generator.speakers.map(\.speaker.key)).count == 40)
        #expect(Set(generator.speakers.map(\.photoBlobName)).count == 40)
        let catalog = generator.catalog
        for generated in generator.speakers.dropFirst(8) {
            let parts = generated.speaker.name.split(separator: " ", maxSplits: 1).map(String.init)
            #expect(parts.count == 2)
            #expect(
                catalog.firstNames.contains(parts[0]) && catalog.lastNames.contains(parts[1]),
                "\(generated.speaker.name)"
            )
            #expect(!catalog.speakers.map(\.name).contains(generated.speaker.name))
            #expect(catalog.titles.contains(generated.speaker.title))
            #expect(generated.photo.format == .png)
            #expect(ImageFormat(sniffing: generated.photo.bytes) == .png)
            #expect(generated.photo.bytes == PlaceholderPhoto.png(forName: generated.speaker.name))
            #expect(generated.photoBlobName.hasSuffix(".png"))
            #expect(generated.speaker.imageUrl == Self.base + BlobURL.escape(generated.photoBlobName))
            #expect(BlobURL(generated.speaker.imageUrl)?.blob == generated.photoBlobName)
            #expect(generated.speaker.bio == catalog.bio(name: generated.speaker.name, title: generated.speaker.title))
        }
        #expect(Set(events.map(\.speakerKey)).count == 40)
    }

    @Test("generated speakers can use up every name pair")
    func everyNamePair() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        let pairs = Set(catalog.firstNames.flatMap { first in catalog.lastNames.map { first + " " + $0 } }).subtracting(
            catalog.speakers.map(\.name)
        )
        let all = try SeedGenerator(catalog: catalog, options: Self.options(events: 0, speakers: 8 + pairs.count))
        #expect(Set(all.speakers.dropFirst(8).map(\.speaker.name)) == pairs)
        #expect(throws: GenerationError.self) {
            try SeedGenerator(catalog: catalog, options: Self.options(events: 0, speakers: 9 + pairs.count))
        }
    }
}
