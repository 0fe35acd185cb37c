import SpeakEasyData
import TestSupport
import Testing

/// The closed form against the definition (``LocalTimeRule/allows(_:)``), one slot at a time.
@Suite("AllowedSlots: the window's dates a location and name allow, in closed form")
struct AllowedSlotsTests {
    /// The allowed slots of a window, by visiting every one.
    static func bruteForce(_ window: DateWindow, _ rule: LocalTimeRule) -> [UInt64] {
        (0..<window.slotCount).filter { rule.allows(window.date(at: $0)) }
    }

    @Test(
        "count and the rank-th slot agree with enumeration on random small windows, mid-day ends and offsets across midnight UTC included"
    )
    func randomWindows() throws {
        var random = SplitMix64(seed: 2026)
        let offsets = [0, -360, -300, -480, -210, 330, 345, 600, 840, -720, -180, 480]
        let base = EdmDateTime.at("2026-11-20T00:00:00Z").ticks
        for run in 0..<160 {
            let resolution: DateResolution = [.minute, .hour, .hour, .day][random.index(below: 4)]
            let format: EventDateFormat = random.index(below: 2) == 0 ? .app : .azure
            let span =
                resolution == .day
                ? 40 * EdmDateTime.ticksPerDay : (resolution == .hour ? 20 : 3) * EdmDateTime.ticksPerDay
            // Half the windows start and end on whole days or hours, half anywhere.
            let aligned = random.index(below: 2) == 0 ? EdmDateTime.ticksPerHour : 1
            let start = base + Int64(random.uniform(below: UInt64(span))) / aligned * aligned
            let end = start + Int64(random.uniform(below: UInt64(span))) / aligned * aligned
            let rule = LocalTimeRule(
                utcOffsetMinutes: offsets[random.index(below: offsets.count)],
                weekday: random.index(below: 3) == 0 ? nil : Weekday.allCases[random.index(below: 7)]
            )
            guard
                let window = DateWindow(
                    from: EdmDateTime(ticks: start)!,
                    cutoff: EdmDateTime(ticks: end)!,
                    resolution: resolution,
                    format: format
                )
            else { continue }
            let expected = Self.bruteForce(window, rule)
            let slots = AllowedSlots(window: window, rule: rule)
            #expect(
                slots.count == UInt64(expected.count),
                "run \(run): \(rule) \(window.first)…\(window.last) \(resolution)"
            )
            guard slots.count == UInt64(expected.count) else { continue }
            let ranked = (0..<slots.count).map(slots.slot(at:))
            #expect(ranked == expected, "run \(run): \(rule) \(window.first)…\(window.last) \(resolution)")
            #expect(zip(ranked, ranked.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test("at tick resolution, around the 08:00 and 21:00 edges, in both formats")
    func tickEdges() throws {
        for format in [EventDateFormat.app, .azure] {
            for edge in ["2026-11-24T13:00:00Z", "2026-11-25T02:00:00Z", "2026-11-23T13:00:00Z"] {
                for (before, after) in [(Int64(25), Int64(25)), (0, 37), (41, 0), (9, 1)] {
                    let at = EdmDateTime.at(edge).ticks
                    let window = try #require(
                        DateWindow(
                            from: EdmDateTime(ticks: at - before)!,
                            cutoff: EdmDateTime(ticks: at + after)!,
                            resolution: .tick,
                            format: format
                        )
                    )
                    for weekday in [nil, Weekday.tuesday, .monday] {
                        let rule = LocalTimeRule(utcOffsetMinutes: -300, weekday: weekday)
                        let slots = AllowedSlots(window: window, rule: rule)
                        #expect(
                            (0..<slots.count).map(slots.slot(at:)) == Self.bruteForce(window, rule),
                            "\(edge) -\(before)+\(after) \(format) \(String(describing: weekday))"
                        )
                    }
                }
            }
        }
    }

    @Test(
        "eight thousand years at tick resolution are counted without visiting them: 13 hours a day, a seventh of that for a weekday"
    )
    func wholeRange() throws {
        let window = try #require(DateWindow(from: .azureMinimum, cutoff: .max, resolution: .tick, format: .app))
        let days = (EdmDateTime.max.ticks + 1 - EdmDateTime.azureMinimum.ticks) / EdmDateTime.ticksPerDay
        let perDay = UInt64(13 * EdmDateTime.ticksPerHour / 10 * 9)  // ticks not ending in 0
        for weekday in [nil, Weekday.monday, .sunday] {
            let rule = LocalTimeRule(utcOffsetMinutes: -360, weekday: weekday)
            let slots = AllowedSlots(window: window, rule: rule)
            let expected = weekday == nil ? UInt64(days) * perDay : UInt64(days / 7) * perDay
            #expect(
                slots.count >= expected - perDay && slots.count <= expected + perDay,
                "\(slots.count) vs \(expected)"
            )
            var previous: UInt64?
            for rank in [0, 1, slots.count / 3, slots.count / 2, slots.count - 2, slots.count - 1] {
                let slot = slots.slot(at: rank)
                #expect(slot < window.slotCount)
                #expect(rule.allows(window.date(at: slot)), "\(window.date(at: slot))")
                if let previous { #expect(previous < slot) }
                previous = slot
            }
        }
    }
}
