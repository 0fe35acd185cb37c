import Foundation
import SpeakEasyData
import TestSupport
import Testing

@Suite("Weekday: the day an event name names")
struct WeekdayTests {
    @Test(
        "a weekday's name or plural, as a word in any case, names it; other names name none",
        arguments: [
            ("Mobile Mondays", Weekday?.some(.monday)), ("SharePoint Saturdays", .saturday),
            ("TUESDAY talks", .tuesday), ("sunday", .sunday),
            ("Friday-Night Hack", .friday), ("Thursdays@HQ", .thursday), ("Wednesday & Friday", .wednesday),
            ("iOS Meetup", nil), ("HTML5 Meetup", nil), ("Mondayish", nil), ("Mon Meetup", nil), ("Sundaes", nil),
            ("", nil),
        ]
    )
    func named(name: String, weekday: Weekday?) {
        #expect(Weekday(namedIn: name) == weekday)
    }

    @Test(
        "day 0 of the time line, 0001-01-01, was a Monday: the weekdays agree with the Gregorian calendar",
        arguments: [
            "1601-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "2026-11-23T12:00:00Z", "2026-11-28T23:59:59.9999999Z",
            "9999-12-31T00:00:00Z",
        ]
    )
    func calendar(date: String) throws {
        let edm = EdmDateTime.at(date)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(secondsFromGMT: 0))
        let seconds = Double(
            edm.ticks / EdmDateTime.ticksPerSecond - EdmDateTime.unixEpoch.ticks / EdmDateTime.ticksPerSecond
        )
        let gregorian = calendar.component(.weekday, from: Date(timeIntervalSince1970: seconds))  // 1 = Sunday
        #expect(Weekday(of: edm).rawValue == (gregorian + 5) % 7, "\(date)")
        #expect(Weekday(of: .min) == .monday)
    }
}
