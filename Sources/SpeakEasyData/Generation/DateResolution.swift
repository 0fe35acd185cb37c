/// The step between possible event dates.
package enum DateResolution: String, CaseIterable, Codable, Sendable {
    case day, hour, minute, second, tick

    /// The step in 100-ns ticks.
    package var ticks: Int64 {
        switch self {
        case .day: EdmDateTime.ticksPerDay
        case .hour: EdmDateTime.ticksPerHour
        case .minute: EdmDateTime.ticksPerMinute
        case .second: EdmDateTime.ticksPerSecond
        case .tick: 1
        }
    }
}

/// The dates events can take: every multiple of the resolution in `from...cutoff`, both inclusive.
package struct DateWindow: Hashable, Sendable {
    package let first: EdmDateTime
    package let step: Int64
    /// How many distinct dates there are (at least 1).
    package let slotCount: UInt64

    /// Nil when no multiple of the step falls inside the window.
    package init?(from: EdmDateTime, cutoff: EdmDateTime, resolution: DateResolution) {
        let step = resolution.ticks
        let firstTicks = (from.ticks + step - 1) / step * step
        let lastTicks = cutoff.ticks / step * step
        guard from <= cutoff, firstTicks <= lastTicks, let first = EdmDateTime(ticks: firstTicks) else { return nil }
        self.first = first
        self.step = step
        self.slotCount = UInt64((lastTicks - firstTicks) / step) + 1
    }

    package func date(at slot: UInt64) -> EdmDateTime {
        EdmDateTime(uncheckedTicks: first.ticks + Int64(slot) * step)
    }

    package var last: EdmDateTime { date(at: slotCount - 1) }
}
