import SpeakEasyCore
package import SpeakEasyModel

/// When an event may start, in the local time of its location: from 08:00 (inclusive) to 21:00
/// (exclusive), and on the weekday its name names if it names one ("Mobile Mondays" on a Monday).
///
/// Local time is UTC plus the location's fixed offset: standard time all year. Daylight saving time
/// is ignored, so a summer event in Chicago that starts at 20:30 by this rule starts at 21:30 by the
/// clock; both are still an evening, and a fixed offset keeps the allowed dates periodic, which
/// ``AllowedSlots`` needs to count them without enumerating them.
package struct LocalTimeRule: Hashable, Sendable {
    /// The first local hour an event may start in.
    package static let firstHour: Int64 = 8
    /// The local hour events no longer start at (exclusive).
    package static let endHour: Int64 = 21

    /// Minutes east of UTC (Chicago in standard time: -360).
    package var utcOffsetMinutes: Int
    /// The weekday the event must fall on, in local time; nil for any day.
    package var weekday: Weekday?

    package init(utcOffsetMinutes: Int, weekday: Weekday?) {
        self.utcOffsetMinutes = utcOffsetMinutes
        self.weekday = weekday
    }

    /// The offset in ticks.
    package var offsetTicks: Int64 { Int64(utcOffsetMinutes) * EdmDateTime.ticksPerMinute }

    /// Whether an event may start at `date`: the definition, one date at a time (``AllowedSlots``
    /// counts the same set in closed form).
    package func allows(_ date: EdmDateTime) -> Bool {
        let local = date.ticks + offsetTicks
        let day = EdmDateTime.ticksPerDay
        let dayNumber = floorDivision(local, day)
        let timeOfDay = local - dayNumber * day
        guard timeOfDay >= Self.firstHour * EdmDateTime.ticksPerHour,
            timeOfDay < Self.endHour * EdmDateTime.ticksPerHour
        else { return false }
        return weekday.map { Weekday(dayNumber: dayNumber) == $0 } ?? true
    }

    /// "08:00–21:00 local time", for messages.
    package static var hoursText: String {
        func clock(_ hour: Int64) -> String { (hour < 10 ? "0" : "") + "\(hour):00" }
        return clock(firstHour) + "–" + clock(endHour) + " local time"
    }
}
