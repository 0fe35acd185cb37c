import SpeakEasyData
import TestSupport
import Testing

@Suite("SeedRequest defaults")
struct SeedRequestTests {
    static let base = "http://127.0.0.1:10000/speakeasy/speakers/"

    @Test("unset options resolve to 100 events, the 8 sample speakers, today 00:00 UTC + 365 days, minutes")
    func defaults() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        let now = EdmDateTime.at("2026-05-17T13:45:12.3456789Z")
        let options = try SeedRequest().resolved(catalog: catalog, photoBaseURL: Self.base, now: now)
        #expect(options.eventCount == 100)
        #expect(options.speakerCount == 8)
        #expect(options.from == .at("2026-05-17T00:00:00Z"))
        #expect(options.cutoff == .at("2027-05-17T00:00:00Z"))
        #expect(options.cutoff.ticks - options.from.ticks == 365 * EdmDateTime.ticksPerDay)
        #expect(options.resolution == .minute)
        #expect(options.photoBaseURL == Self.base)
    }

    @Test("the default window counts 365 days, also across a leap day")
    func leapYear() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        let options = try SeedRequest().resolved(
            catalog: catalog,
            photoBaseURL: Self.base,
            now: .at("2027-06-01T23:59:59.9999999Z")
        )
        #expect(options.from == .at("2027-06-01T00:00:00Z"))
        #expect(options.cutoff == .at("2028-05-31T00:00:00Z"))
    }

    @Test("given options are kept; only the missing ones take defaults")
    func explicit() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        var request = SeedRequest()
        request.seed = 42
        request.eventCount = 7
        request.speakerCount = 3
        request.from = .at("2026-01-01T12:00:00Z")
        request.resolution = .day
        let options = try request.resolved(catalog: catalog, photoBaseURL: Self.base, now: .at("2030-01-01T00:00:00Z"))
        #expect(options.seed == 42)
        #expect(options.eventCount == 7)
        #expect(options.speakerCount == 3)
        #expect(options.from == .at("2026-01-01T12:00:00Z"))
        #expect(options.cutoff == .at("2027-01-01T12:00:00Z"))
        #expect(options.resolution == .day)
        request.cutoff = .at("2026-02-01T00:00:00Z")
        #expect(try request.resolved(catalog: catalog, photoBaseURL: Self.base).cutoff == .at("2026-02-01T00:00:00Z"))
    }

    @Test("an unset seed is drawn at random")
    func randomSeed() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        let seeds = try Set(
            (0..<8).map { _ in try SeedRequest().resolved(catalog: catalog, photoBaseURL: Self.base).seed }
        )
        #expect(seeds.count > 1)
    }

    @Test("a default cutoff past 9999-12-31 asks for --cutoff")
    func pastMaximum() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        var request = SeedRequest()
        request.from = .at("9999-06-01T00:00:00Z")
        let error = #expect(throws: GenerationError.self) {
            try request.resolved(catalog: catalog, photoBaseURL: Self.base)
        }
        #expect(error?.toolDescription.contains("give --cutoff") == true)
        #expect(
            error?.reason.hasSuffix("; give cutoff") == true,
            "the library names SeedOptions' cutoff, not the tool's option"
        )
    }

    @Test("agrees(with:) compares only what the request says")
    func agrees() throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        var request = SeedRequest()
        request.seed = 1
        let options = try request.resolved(catalog: catalog, photoBaseURL: Self.base)
        #expect(SeedRequest().agrees(with: options))
        #expect(request.agrees(with: options))
        request.eventCount = 101
        #expect(!request.agrees(with: options))
    }
}
