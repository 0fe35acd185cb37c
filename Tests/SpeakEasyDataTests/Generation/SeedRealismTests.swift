import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// Issue 11, item 10: no events at 03:00, no "Mobile Mondays" on a Saturday.
@Suite("SeedGenerator: plausible local dates")
struct SeedRealismTests {
    static let offsets = [
        "Chicago, IL": -360, "Milwaukee, WI": -360, "Madison, WI": -360, "Boston, MA": -300, "Washington, DC": -300,
        "Los Angeles, CA": -480, "Las Vegas, NV": -480, "New York City, NY": -300,
    ]
    /// Foundation's weekday (1 = Sunday) each sample name asks for.
    static let named = ["Mobile Mondays": 2, "SharePoint Saturdays": 7]

    /// Checked with Foundation's calendar in the location's zone, not with the generator's own arithmetic.
    static func check(_ event: Event) throws {
        let offset = try #require(offsets[event.location])
        let local = event.date.ticks + Int64(offset) * EdmDateTime.ticksPerMinute
        let timeOfDay = local % EdmDateTime.ticksPerDay
        #expect(
            timeOfDay >= 8 * EdmDateTime.ticksPerHour && timeOfDay < 21 * EdmDateTime.ticksPerHour,
            "\(event.name) in \(event.location) at \(event.date)"
        )
        guard let weekday = named[event.name] else { return }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: offset * 60))
        let seconds = Double(
            event.date.ticks / EdmDateTime.ticksPerSecond - EdmDateTime.unixEpoch.ticks / EdmDateTime.ticksPerSecond
        )
        #expect(
            calendar.component(.weekday, from: Date(timeIntervalSince1970: seconds)) == weekday,
            "\(event.name) in \(event.location) at \(event.date)"
        )
    }

    @Test(
        "named weekdays in local time and starts from 08:00 to before 21:00, over seeds, every resolution and both formats",
        arguments: DateResolution.allCases,
        [EventDateFormat.app, .azure]
    )
    func plausible(resolution: DateResolution, format: EventDateFormat) throws {
        for seed in UInt64(1)...6 {
            let options = SeedGeneratorTests.options(
                seed: seed,
                events: 400,
                from: "2026-01-01T10:20:30.1234567Z",
                cutoff: "2026-03-05T08:09:10.7654321Z",
                resolution: resolution,
                dateFormat: format
            )
            let (_, events) = try SeedGeneratorTests.generate(options)
            #expect(events.count == 400)
            for event in events {
                try Self.check(event)
                #expect(event.date >= options.from && event.date <= options.cutoff)
                if resolution != .tick {
                    #expect(event.date.ticks % resolution.ticks == (format == .app ? 1 : 0), "\(event.date)")
                }
                if format == .app { #expect(event.date.survivesAzureTrimming, "\(event.date)") }
            }
            #expect(
                events.contains { $0.name == "Mobile Mondays" } && events.contains { $0.name == "SharePoint Saturdays" }
            )
        }
    }

    /// Tuesday 12:00 UTC to Wednesday 05:00 UTC: Tuesday, 04:00 to 00:00, in every sample location.
    static let tuesday = (from: "2026-11-24T12:00:00Z", cutoff: "2026-11-25T05:00:00Z")

    @Test("--events equal to the exact count of combinations gives every one; one more is refused")
    func exactTotal() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        let options = SeedGeneratorTests.options(
            events: 0,
            speakers: 2,
            from: Self.tuesday.from,
            cutoff: Self.tuesday.cutoff,
            resolution: .hour
        )
        // By hand: every hour of the window, for every name and location, if plausible there.
        var expected = Set<SeedGeneratorTests.Identity>()
        let generator = try SeedGenerator(catalog: catalog, options: options)
        for slot in 0..<generator.window.slotCount {
            for name in catalog.eventNames {
                for location in catalog.locations {
                    for speaker in generator.speakers {
                        let event = Event(
                            key: "",
                            date: generator.window.date(at: slot),
                            name: name,
                            location: location.name,
                            description: "",
                            speakerKey: speaker.speaker.key,
                            speakerName: speaker.speaker.name
                        )
                        let local = event.date.ticks + Int64(location.utcOffsetMinutes) * EdmDateTime.ticksPerMinute
                        let hour = local % EdmDateTime.ticksPerDay / EdmDateTime.ticksPerHour
                        if hour >= 8 && hour < 21 && Self.named[name] == nil {
                            expected.insert(SeedGeneratorTests.Identity(event))
                        }
                    }
                }
            }
        }
        #expect(generator.combinationCount == UInt128(expected.count))
        var full = options
        full.eventCount = expected.count
        let (_, events) = try SeedGeneratorTests.generate(full)
        #expect(Set(events.map(SeedGeneratorTests.Identity.init)) == expected)
        var tooMany = full
        tooMany.eventCount += 1
        let error = #expect(throws: GenerationError.self) { try SeedGenerator(catalog: catalog, options: tooMany) }
        #expect(
            error?.reason.contains("more than the \(expected.count) distinct events possible") == true,
            "\(String(describing: error))"
        )
    }

    @Test(
        "a window that is Tuesday everywhere never gives a Mondays or Saturdays event",
        arguments: DateResolution.allCases.filter { $0 != .day }
    )
    func onlyTuesday(resolution: DateResolution) throws {
        let (_, events) = try SeedGeneratorTests.generate(
            SeedGeneratorTests.options(
                events: 300,
                from: Self.tuesday.from,
                cutoff: Self.tuesday.cutoff,
                resolution: resolution
            )
        )
        #expect(!events.contains { $0.name == "Mobile Mondays" || $0.name == "SharePoint Saturdays" })
        for event in events { try Self.check(event) }
    }

    @Test("at day resolution each date is 00:00 UTC: an evening in every sample location (16:00 to 19:00)")
    func dayResolution() throws {
        let (_, events) = try SeedGeneratorTests.generate(SeedGeneratorTests.options(events: 300, resolution: .day))
        for event in events {
            try Self.check(event)
            #expect(event.date.ticks % EdmDateTime.ticksPerDay == 1)
        }
    }

    @Test("a window without a plausible start anywhere is refused, with the hours")
    func nothingPlausible() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        // 06:00–12:00 UTC: 22:00 to 07:00 in every sample location.
        let night = #expect(throws: GenerationError.self) {
            try SeedGenerator(
                catalog: catalog,
                options: SeedGeneratorTests.options(
                    from: "2026-01-01T06:00:00Z",
                    cutoff: "2026-01-01T12:00:00Z",
                    resolution: .hour
                )
            )
        }
        #expect(night?.reason.contains("08:00–21:00 local time") == true, "\(String(describing: night))")
        // At day resolution a place on UTC never has a plausible date.
        var utc = catalog
        utc.locations = [SampleLocation(name: "London", utcOffsetMinutes: 0)]
        let day = #expect(throws: GenerationError.self) {
            try SeedGenerator(catalog: utc, options: SeedGeneratorTests.options(resolution: .day))
        }
        #expect(day?.toolDescription.contains("--resolution hour") == true, "\(String(describing: day))")
    }
}
