import SpeakEasyData
import TestSupport
import Testing

@Suite("DateWindow: the dates events can take")
struct DateWindowTests {
    @Test(
        "one day, both ends inclusive, at each resolution",
        arguments: [
            (DateResolution.day, UInt64(2)), (.hour, 25), (.minute, 1_441), (.second, 86_401), (.tick, 864_000_000_001),
        ]
    )
    func slotCounts(resolution: DateResolution, slots: UInt64) throws {
        let window = try #require(
            DateWindow(
                from: .at("2024-01-01T00:00:00Z"),
                cutoff: .at("2024-01-02T00:00:00Z"),
                resolution: resolution,
                format: .azure
            )
        )
        #expect(window.slotCount == slots)
        #expect(window.first == .at("2024-01-01T00:00:00Z"))
        #expect(window.last == .at("2024-01-02T00:00:00Z"))
        #expect(window.step == resolution.ticks)
    }

    @Test("the resolution steps are day, hour, minute, second and one tick")
    func steps() {
        #expect(DateResolution.day.ticks == 864_000_000_000)
        #expect(DateResolution.hour.ticks == 36_000_000_000)
        #expect(DateResolution.minute.ticks == 600_000_000)
        #expect(DateResolution.second.ticks == 10_000_000)
        #expect(DateResolution.tick.ticks == 1)
    }

    @Test("a one-year window has 366 days and 525,601 minutes")
    func year() throws {
        let from = EdmDateTime.at("2025-01-01T00:00:00Z")
        let cutoff = EdmDateTime.at("2026-01-01T00:00:00Z")
        // Unwrapped before comparing: `#expect` on a `UInt64?` trips a false stack-buffer-overflow under
        // AddressSanitizer, in the standard library's conversion to AnyHashable (Swift 6.3).
        let days = try #require(DateWindow(from: from, cutoff: cutoff, resolution: .day, format: .azure))
        let minutes = try #require(DateWindow(from: from, cutoff: cutoff, resolution: .minute, format: .azure))
        #expect(days.slotCount == 366)
        #expect(minutes.slotCount == 365 * 1_440 + 1)
    }

    @Test(
        "unaligned ends snap inward to the resolution grid",
        arguments: [
            (
                "2024-01-01T00:00:30Z", "2024-01-01T00:02:10Z", DateResolution.minute, "2024-01-01T00:01:00Z",
                "2024-01-01T00:02:00Z", UInt64(2)
            ),
            ("2024-01-01T10:20:00Z", "2024-01-03T09:00:00Z", .day, "2024-01-02T00:00:00Z", "2024-01-03T00:00:00Z", 2),
            (
                "2024-01-01T10:00:00.0000001Z", "2024-01-01T12:59:59Z", .hour, "2024-01-01T11:00:00Z",
                "2024-01-01T12:00:00Z", 2
            ),
            (
                "2024-01-01T00:00:00.5Z", "2024-01-01T00:00:03.5Z", .second, "2024-01-01T00:00:01Z",
                "2024-01-01T00:00:03Z", 3
            ),
            (
                "2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00.5000002Z", .tick, "2024-01-01T00:00:00.5Z",
                "2024-01-01T00:00:00.5000002Z", 3
            ),
        ]
    )
    func alignment(
        from: String,
        cutoff: String,
        resolution: DateResolution,
        first: String,
        last: String,
        slots: UInt64
    ) throws {
        let window = try #require(
            DateWindow(from: .at(from), cutoff: .at(cutoff), resolution: resolution, format: .azure)
        )
        #expect(window.first == .at(first))
        #expect(window.last == .at(last))
        #expect(window.slotCount == slots)
        for slot in [0, slots / 2, slots - 1] {
            let date = window.date(at: slot)
            #expect(date.ticks % resolution.ticks == 0)
            #expect(date >= .at(from) && date <= .at(cutoff))
        }
    }

    @Test("a single instant is one slot when aligned")
    func singleInstant() {
        let instant = EdmDateTime.at("2024-01-01T00:00:00Z")
        for resolution in DateResolution.allCases {
            #expect(DateWindow(from: instant, cutoff: instant, resolution: resolution, format: .azure)?.slotCount == 1)
        }
    }

    @Test("no window when no multiple of the step lies inside, or when the cutoff is before the start")
    func empty() {
        #expect(
            DateWindow(
                from: .at("2024-01-01T00:00:30Z"),
                cutoff: .at("2024-01-01T00:00:50Z"),
                resolution: .minute,
                format: .azure
            ) == nil
        )
        #expect(
            DateWindow(
                from: .at("2024-01-01T01:00:00Z"),
                cutoff: .at("2024-01-01T23:00:00Z"),
                resolution: .day,
                format: .azure
            ) == nil
        )
        #expect(
            DateWindow(
                from: .at("2024-01-02T00:00:00Z"),
                cutoff: .at("2024-01-01T00:00:00Z"),
                resolution: .tick,
                format: .azure
            ) == nil
        )
        #expect(
            DateWindow(
                from: .at("2024-01-02T00:00:00Z"),
                cutoff: .at("2024-01-01T00:00:00Z"),
                resolution: .day,
                format: .azure
            ) == nil
        )
    }

    @Test("the whole Edm.DateTime range fits")
    func wholeRange() throws {
        let window = try #require(DateWindow(from: .min, cutoff: .max, resolution: .tick, format: .azure))
        #expect(window.slotCount == UInt64(EdmDateTime.max.ticks) + 1)
        #expect(window.last == .max)
        let days = try #require(DateWindow(from: .min, cutoff: .max, resolution: .day, format: .azure))
        #expect(days.last == .at("9999-12-31T00:00:00Z"))
        #expect(days.slotCount == 3_652_059)
    }

    // MARK: The app's format: no date may end in 0, which Azure would trim away.

    @Test(
        "app format: one day holds the resolution's dates plus one tick, the last one before the cutoff",
        arguments: [
            (DateResolution.day, UInt64(1)), (.hour, 24), (.minute, 1_440), (.second, 86_400), (.tick, 777_600_000_000),
        ]
    )
    func appSlotCounts(resolution: DateResolution, slots: UInt64) throws {
        let window = try #require(
            DateWindow(
                from: .at("2024-01-01T00:00:00Z"),
                cutoff: .at("2024-01-02T00:00:00Z"),
                resolution: resolution,
                format: .app
            )
        )
        #expect(window.slotCount == slots)
        #expect(window.first == .at("2024-01-01T00:00:00.0000001Z"))
        #expect(window.last.survivesAzureTrimming)
        #expect(window.last <= .at("2024-01-02T00:00:00Z"))
    }

    @Test("app format at tick resolution: every tick of a stretch but those ending in 0, in order, none twice")
    func appTicksSkipZeros() throws {
        for (from, cutoff) in [(0, 35), (1, 9), (9, 11), (10, 10), (10, 11), (19, 41), (123_456_780, 123_456_800)]
            as [(Int64, Int64)]
        {
            let base = EdmDateTime.at("2024-01-01T00:00:00Z").ticks
            let expected = (base + from...base + cutoff).filter { $0 % 10 != 0 }
            let window = DateWindow(
                from: EdmDateTime(ticks: base + from)!,
                cutoff: EdmDateTime(ticks: base + cutoff)!,
                resolution: .tick,
                format: .app
            )
            if expected.isEmpty {
                #expect(window == nil, "\(from)…\(cutoff)")
                continue
            }
            let slots = try #require(window, "\(from)…\(cutoff)")
            #expect((0..<slots.slotCount).map { slots.date(at: $0).ticks } == expected, "\(from)…\(cutoff)")
        }
    }

    @Test("app format: a window with no date ending in a non-zero digit is empty")
    func appEmpty() {
        #expect(
            DateWindow(
                from: .at("2024-01-01T00:00:00Z"),
                cutoff: .at("2024-01-01T00:00:00Z"),
                resolution: .minute,
                format: .app
            ) == nil
        )
        #expect(
            DateWindow(
                from: .at("2024-01-01T00:00:00.0000002Z"),
                cutoff: .at("2024-01-01T00:00:59Z"),
                resolution: .minute,
                format: .app
            ) == nil
        )
        #expect(DateWindow(from: .min, cutoff: .min, resolution: .tick, format: .app) == nil)
    }

    @Test(
        "app format: from the first to the last representable date, at every resolution, every date survives trimming"
    )
    func appWholeRange() throws {
        for resolution in DateResolution.allCases {
            let window = try #require(DateWindow(from: .min, cutoff: .max, resolution: resolution, format: .app))
            #expect(window.first.survivesAzureTrimming && window.last.survivesAzureTrimming)
            #expect(window.last <= .max)
            #expect(window.date(at: window.slotCount / 2).survivesAzureTrimming)
        }
    }
}
