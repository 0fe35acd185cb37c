import SpeakEasyCore
package import SpeakEasyModel

/// A day of the week, numbered from Monday: day 0 of the Edm.DateTime time line, 0001-01-01 of the
/// proleptic Gregorian calendar, was a Monday, so day number `d` falls on weekday `d mod 7`.
package enum Weekday: Int, CaseIterable, Sendable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The weekday of day number `day`, counted from 0001-01-01 (negative days count backwards).
    package init(dayNumber day: Int64) {
        self = Weekday(rawValue: Int(floorModulo(day, 7)))!
    }

    /// The weekday of the calendar day a date falls on.
    package init(of date: EdmDateTime) {
        self.init(dayNumber: date.ticks / EdmDateTime.ticksPerDay)
    }

    /// The weekday an event name names: the first word (a run of letters, any case) that is a
    /// weekday's English name or its plural, as in "Mobile Mondays" or "SharePoint Saturdays". Nil
    /// when the name names none ("iOS Meetup"). Abbreviations ("Mon") are not weekdays: too many
    /// words begin with them.
    package init?(namedIn name: String) {
        for word in name.lowercased().split(whereSeparator: { !$0.isLetter }) {
            let singular = word.hasSuffix("s") ? word.dropLast() : word[...]
            if let day = Weekday.allCases.first(where: { $0.englishName.lowercased() == singular }) {
                self = day
                return
            }
        }
        return nil
    }

    package var englishName: String {
        switch self {
        case .monday: "Monday"
        case .tuesday: "Tuesday"
        case .wednesday: "Wednesday"
        case .thursday: "Thursday"
        case .friday: "Friday"
        case .saturday: "Saturday"
        case .sunday: "Sunday"
        }
    }
}
