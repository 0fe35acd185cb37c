import SpeakEasyData
import TestFixtures
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
        let window = try #require(DateWindow(from: .at("2024-01-01T00:00:00Z"), cutoff: .at("2024-01-02T00:00:00Z"), resolution: resolution))
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
        let from = EdmDateTime.at("2025-01-01T00:00:00Z"), cutoff = EdmDateTime.at("2026-01-01T00:00:00Z")
        #expect(DateWindow(from: from, cutoff: cutoff, resolution: .day)?.slotCount == 366)
        #expect(DateWindow(from: from, cutoff: cutoff, resolution: .minute)?.slotCount == 365 * 1_440 + 1)
    }

    @Test(
        "unaligned ends snap inward to the resolution grid",
        arguments: [
            ("2024-01-01T00:00:30Z", "2024-01-01T00:02:10Z", DateResolution.minute, "2024-01-01T00:01:00Z", "2024-01-01T00:02:00Z", UInt64(2)),
            ("2024-01-01T10:20:00Z", "2024-01-03T09:00:00Z", .day, "2024-01-02T00:00:00Z", "2024-01-03T00:00:00Z", 2),
            ("2024-01-01T10:00:00.0000001Z", "2024-01-01T12:59:59Z", .hour, "2024-01-01T11:00:00Z", "2024-01-01T12:00:00Z", 2),
            ("2024-01-01T00:00:00.5Z", "2024-01-01T00:00:03.5Z", .second, "2024-01-01T00:00:01Z", "2024-01-01T00:00:03Z", 3),
            ("2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00.5000002Z", .tick, "2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00.5000002Z", 3),
        ]
    )
    func alignment(from: String, cutoff: String, resolution: DateResolution, first: String, last: String, slots: UInt64) throws {
        let window = try #require(DateWindow(from: .at(from), cutoff: .at(cutoff), resolution: resolution))
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
            #expect(DateWindow(from: instant, cutoff: instant, resolution: resolution)?.slotCount == 1)
        }
    }

    @Test("no window when no multiple of the step lies inside, or when the cutoff is before the start")
    func empty() {
        #expect(DateWindow(from: .at("2024-01-01T00:00:30Z"), cutoff: .at("2024-01-01T00:00:50Z"), resolution: .minute) == nil)
        #expect(DateWindow(from: .at("2024-01-01T01:00:00Z"), cutoff: .at("2024-01-01T23:00:00Z"), resolution: .day) == nil)
        #expect(DateWindow(from: .at("2024-01-02T00:00:00Z"), cutoff: .at("2024-01-01T00:00:00Z"), resolution: .tick) == nil)
        #expect(DateWindow(from: .at("2024-01-02T00:00:00Z"), cutoff: .at("2024-01-01T00:00:00Z"), resolution: .day) == nil)
    }

    @Test("the whole Edm.DateTime range fits")
    func wholeRange() throws {
        let window = try #require(DateWindow(from: .min, cutoff: .max, resolution: .tick))
        #expect(window.slotCount == UInt64(EdmDateTime.max.ticks) + 1)
        #expect(window.last == .max)
        let days = try #require(DateWindow(from: .min, cutoff: .max, resolution: .day))
        #expect(days.last == .at("9999-12-31T00:00:00Z"))
        #expect(days.slotCount == 3_652_059)
    }
}
