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

/// The dates events can take inside `from...cutoff`, both inclusive, numbered by slot.
///
/// With ``EventDateFormat/azure`` they are the multiples of the resolution. With
/// ``EventDateFormat/app`` every date must keep its seventh fractional digit when Azure trims trailing
/// zeros, so its last tick digit is never 0: the dates are the multiples of the resolution plus one
/// tick (`18:30:00.0000001Z`, which any person reads as 18:30), and at `tick` resolution every tick
/// whose last digit is not 0.
package struct DateWindow: Hashable, Sendable {
    package let step: Int64
    package let format: EventDateFormat
    /// The number of the first slot on the whole time line (see ``ticks(atIndex:)``).
    private let firstIndex: Int64
    /// How many distinct dates there are (at least 1).
    package let slotCount: UInt64

    /// Nil when no date of the resolution and format falls inside the window.
    package init?(from: EdmDateTime, cutoff: EdmDateTime, resolution: DateResolution, format: EventDateFormat) {
        let step = resolution.ticks
        self.step = step
        self.format = format
        let firstIndex: Int64, lastIndex: Int64
        switch (format, step) {
        case (.azure, _):
            firstIndex = (from.ticks + step - 1) / step
            lastIndex = cutoff.ticks / step
        case (.app, 1):
            // Ticks 1…t hold t - t/10 that do not end in 0.
            let from = Swift.max(from.ticks, 1)
            firstIndex = (from - 1) - (from - 1) / 10
            lastIndex = cutoff.ticks - cutoff.ticks / 10 - 1
        case (.app, _):
            let from = Swift.max(from.ticks, 1)
            firstIndex = (from - 1 + step - 1) / step
            lastIndex = (cutoff.ticks - 1) / step
        }
        guard from <= cutoff, cutoff.ticks >= 1 || format == .azure, firstIndex <= lastIndex else { return nil }
        self.firstIndex = firstIndex
        self.slotCount = UInt64(lastIndex - firstIndex) + 1
    }

    /// The ticks of the date numbered `index` on the whole time line.
    private func ticks(atIndex index: Int64) -> Int64 {
        switch (format, step) {
        case (.azure, _): index * step
        case (.app, 1): index + index / 9 + 1
        case (.app, _): index * step + 1
        }
    }

    package func date(at slot: UInt64) -> EdmDateTime {
        EdmDateTime(uncheckedTicks: ticks(atIndex: firstIndex + Int64(slot)))
    }

    package var first: EdmDateTime { date(at: 0) }
    package var last: EdmDateTime { date(at: slotCount - 1) }
}
