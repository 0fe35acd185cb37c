package import SpeakEasyModel

/// HTTP's dates (RFC 1123, always GMT): `Tue, 14 Sep 2021 21:24:20 GMT`, as `Date`,
/// `Last-Modified` and `x-ms-date` carry them.
package enum HTTPDate {
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date in RFC 1123 form, to the second.
    package static func format(_ date: EdmDateTime) -> String {
        let c = date.components
        // Day 0 (0001-01-01) was a Monday.
        let weekday = weekdays[Int(date.ticks / EdmDateTime.ticksPerDay % 7)]
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        return "\(weekday), \(two(c.day)) \(months[c.month - 1]) \(c.year) \(two(c.hour)):\(two(c.minute)):\(two(c.second)) GMT"
    }

    /// Parses an RFC 1123 date; nil when `text` is not one (the weekday is not checked).
    package static func parse(_ text: String) -> EdmDateTime? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT", let day = Int(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":")
        guard time.count == 3, let hour = Int(time[0]), let minute = Int(time[1]), let second = Int(time[2]) else { return nil }
        return EdmDateTime(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second, fraction: 0)
    }
}
