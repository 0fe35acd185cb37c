import SpeakEasyData
import Testing

@Suite("HTTP dates")
struct HTTPDateTests {
    @Test(
        "formats and parses RFC 1123",
        arguments: [
            (
                "Tue, 14 Sep 2021 21:24:20 GMT",
                EdmDateTime(year: 2021, month: 9, day: 14, hour: 21, minute: 24, second: 20)!
            ),
            ("Mon, 01 Jan 0001 00:00:00 GMT", EdmDateTime(year: 1, month: 1, day: 1)!),
            (
                "Thu, 29 Feb 2024 09:05:07 GMT",
                EdmDateTime(year: 2024, month: 2, day: 29, hour: 9, minute: 5, second: 7)!
            ),
            (
                "Fri, 31 Dec 9999 23:59:59 GMT",
                EdmDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59)!
            ),
        ]
    )
    func roundTrip(_ text: String, _ date: EdmDateTime) {
        #expect(HTTPDate.format(date) == text)
        #expect(HTTPDate.parse(text) == date)
    }

    @Test(
        "refuses anything else",
        arguments: [
            "", "Tue, 14 Sep 2021 21:24:20 UTC", "Wed, 14 Sep 2021 21:24:20 GMT", "Tue, 14 Sep 2021 21:24:20",
            "Tuesday, 14-Sep-21 21:24:20 GMT",
            "Tue, 31 Sep 2021 21:24:20 GMT", "Tue, 14 Foo 2021 21:24:20 GMT", "Tue, 14 Sep 2021 25:24:20 GMT",
            "2021-09-14T21:24:20Z",
            "Tue, 1a Sep 2021 21:24:20 GMT",
        ]
    )
    func malformed(_ text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test("fresh within 15 minutes either way")
    func freshness() {
        let now = EdmDateTime(year: 2024, month: 5, day: 1, hour: 12)!
        #expect(HTTPDate.isFresh(now.adding(ticks: 15 * EdmDateTime.ticksPerMinute)!, now: now))
        #expect(HTTPDate.isFresh(now.adding(ticks: -15 * EdmDateTime.ticksPerMinute)!, now: now))
        #expect(!HTTPDate.isFresh(now.adding(ticks: 15 * EdmDateTime.ticksPerMinute + 1)!, now: now))
        #expect(!HTTPDate.isFresh(now.adding(ticks: -16 * EdmDateTime.ticksPerMinute)!, now: now))
    }
}
