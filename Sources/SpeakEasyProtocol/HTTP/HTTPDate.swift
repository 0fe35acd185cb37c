package import SpeakEasyModel

/// HTTP dates in RFC 1123 form (`Tue, 14 Sep 2021 21:24:20 GMT`), the only form Azure Storage sends
/// and the one its SDKs put in `x-ms-date`, and the freshness rule Shared Key applies to them.
package enum HTTPDate {
    private static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// How far a request's `x-ms-date` (or `Date`) may be from the server's clock, either way, before
    /// Shared Key refuses it: 15 minutes, against replayed requests.
    package static let allowedSkew: Int64 = 15 * EdmDateTime.ticksPerMinute

    /// The RFC 1123 form of an instant, to the second (a fraction is dropped).
    package static func format(_ date: EdmDateTime) -> String {
        let c = date.components
        // 0001-01-01 was a Monday in the proleptic Gregorian calendar EdmDateTime counts in.
        let weekday = weekdays[Int(date.ticks / EdmDateTime.ticksPerDay % 7)]
        // "Tue, 14 Sep 2021 21:24:20 GMT": fixed places, written as bytes (every reply has a Date).
        return String(unsafeUninitializedCapacity: 29) { out in
            var count = 0
            func put(_ text: String) {
                for byte in text.utf8 {
                    out[count] = byte
                    count += 1
                }
            }
            func digits(_ value: Int, _ width: Int) {
                var value = value
                for place in stride(from: width - 1, through: 0, by: -1) {
                    out[count + place] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                count += width
            }
            put(weekday)
            put(", ")
            digits(c.day, 2)
            put(" ")
            put(months[c.month - 1])
            put(" ")
            digits(c.year, 4)
            put(" ")
            digits(c.hour, 2)
            put(":")
            digits(c.minute, 2)
            put(":")
            digits(c.second, 2)
            put(" GMT")
            return count
        }
    }

    /// Parses the RFC 1123 form exactly (as Azure requires of `x-ms-date`); nil for anything else,
    /// including a weekday that does not match the date.
    package static func parse(_ text: some StringProtocol) -> EdmDateTime? {
        let bytes = Array(text.utf8)
        // "Tue, 14 Sep 2021 21:24:20 GMT" is 29 bytes; every field has a fixed place.
        guard bytes.count == 29 else { return nil }
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard string(3..<5) == ", ", bytes[7] == UInt8(ascii: " "), bytes[11] == UInt8(ascii: " "),
            bytes[16] == UInt8(ascii: " "),
            bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), string(25..<29) == " GMT",
            let weekday = weekdays.firstIndex(of: string(0..<3)), let month = months.firstIndex(of: string(8..<11)),
            let day = number(5..<7), let year = number(12..<16), let hour = number(17..<19),
            let minute = number(20..<22),
            let second = number(23..<25),
            let date = EdmDateTime(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second),
            Int(date.ticks / EdmDateTime.ticksPerDay % 7) == weekday
        else { return nil }
        return date
    }

    /// Whether a request dated `date` may be accepted at `now` (within ``allowedSkew`` either way).
    package static func isFresh(_ date: EdmDateTime, now: EdmDateTime) -> Bool {
        let difference = date.ticks - now.ticks
        return difference.magnitude <= allowedSkew.magnitude
    }
}
