import SpeakEasyCore
package import SpeakEasyModel

/// The dates events can take inside `from...cutoff`, both inclusive, numbered by slot.
///
/// With ``EventDateFormat/azure`` they are the multiples of the resolution. With
/// ``EventDateFormat/app`` no date may lie on a whole second, which Azure serves without a fraction
/// and the app's date pattern refuses, and a multiple of a second or coarser always does: the dates
/// are the multiples of the resolution plus one tick (`18:30:00.0000001Z`, which any person reads as
/// 18:30, and which Azure serves with all seven digits), and at `tick` resolution every tick whose
/// last digit is not 0.
package struct DateWindow: Hashable, Sendable {
    package let step: Int64
    package let format: EventDateFormat
    /// The number of the first slot on the whole time line (see ``ticks(atIndex:)``).
    package let firstIndex: Int64
    /// How many distinct dates there are (at least 1).
    package let slotCount: UInt64

    /// Nil when no date of the resolution and format falls inside the window.
    package init?(from: EdmDateTime, cutoff: EdmDateTime, resolution: DateResolution, format: EventDateFormat) {
        self.step = resolution.ticks
        self.format = format
        guard from <= cutoff else { return nil }
        let firstIndex = Self.index(atOrAfter: from.ticks, step: step, format: format)
        let lastIndex = Self.index(atOrAfter: cutoff.ticks + 1, step: step, format: format) - 1
        guard firstIndex <= lastIndex else { return nil }
        self.firstIndex = firstIndex
        self.slotCount = UInt64(lastIndex - firstIndex) + 1
    }

    /// The number of the first date at or after `ticks` on the whole time line, which is also how
    /// many dates lie in `0..<ticks` (negative below 0: the grid goes on backwards, with floor
    /// division, so that the count of dates in `a..<b` is always `index(b) - index(a)`).
    package func index(atOrAfter ticks: Int64) -> Int64 { Self.index(atOrAfter: ticks, step: step, format: format) }

    private static func index(atOrAfter ticks: Int64, step: Int64, format: EventDateFormat) -> Int64 {
        switch (format, step) {
        case (.azure, _): -floorDivision(-ticks, step)  // multiples of the step below `ticks`
        case (.app, 1): (ticks - 1) - floorDivision(ticks - 1, 10)  // ticks 1…t-1 not ending in 0
        case (.app, _): -floorDivision(-(ticks - 1), step)  // steps + 1 below `ticks`
        }
    }

    /// The ticks of the date numbered `index` on the whole time line.
    package func ticks(atIndex index: Int64) -> Int64 {
        switch (format, step) {
        case (.azure, _): index * step
        case (.app, 1): index + floorDivision(index, 9) + 1
        case (.app, _): index * step + 1
        }
    }

    package func date(at slot: UInt64) -> EdmDateTime {
        EdmDateTime(uncheckedTicks: ticks(atIndex: firstIndex + Int64(slot)))
    }

    package var first: EdmDateTime { date(at: 0) }
    package var last: EdmDateTime { date(at: slotCount - 1) }
}
