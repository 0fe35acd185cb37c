/// An `Edm.DateTime`: a UTC instant with 100-nanosecond precision, kept as exact ticks.
///
/// `Foundation.Date` is a `Double` of seconds and cannot hold every tick exactly, so we count ticks
/// ourselves — 100-ns intervals since 0001-01-01T00:00:00Z, as .NET and Azure do — and parse and format
/// the lexical form (`yyyy-MM-ddTHH:mm:ss.fffffffZ`) by hand.
public struct EdmDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// 100-ns intervals since 0001-01-01T00:00:00Z.
    public let ticks: Int64
    /// How the text this date was parsed from was written; nil for a date made any other way.
    /// Not part of the value (`==` and hashing use ticks only): `validate` uses it to find dates the
    /// app cannot read, such as `.2Z` as Azure trims it.
    package internal(set) var lexicalShape: LexicalShape?

    /// The shape of a parsed lexical form.
    package struct LexicalShape: Sendable, Hashable {
        /// Fractional digits written, 0 … 7 (0 when there was no `.`).
        package var fractionDigits: Int8
        /// Whether the text ended in `Z`.
        package var hasZone: Bool

        package init(fractionDigits: Int8, hasZone: Bool) {
            self.fractionDigits = fractionDigits
            self.hasZone = hasZone
        }

        /// Exactly `yyyy-MM-ddTHH:mm:ss.fffffffZ`, seven digits and `Z`, as our writers write.
        package var isSevenDigitForm: Bool { fractionDigits == 7 && hasZone }
    }

    /// Whether two dates are the same instant: the same ticks, however they were written.
    public static func == (lhs: EdmDateTime, rhs: EdmDateTime) -> Bool { lhs.ticks == rhs.ticks }
    /// Hashes the ticks.
    public func hash(into hasher: inout Hasher) { hasher.combine(ticks) }

    /// Ticks in a second: 10,000,000.
    public static let ticksPerSecond: Int64 = 10_000_000
    package static let ticksPerMinute: Int64 = 60 * ticksPerSecond
    package static let ticksPerHour: Int64 = 60 * ticksPerMinute
    package static let ticksPerDay: Int64 = 24 * ticksPerHour

    /// 0001-01-01T00:00:00.0000000Z.
    public static let min = EdmDateTime(uncheckedTicks: 0)
    /// 9999-12-31T23:59:59.9999999Z.
    public static let max = EdmDateTime(uncheckedTicks: 3_155_378_975_999_999_999)
    /// 1601-01-01T00:00:00Z, the earliest date Azure Table Storage accepts.
    package static let azureMinimum = EdmDateTime(uncheckedTicks: 504_911_232_000_000_000)
    /// 1970-01-01T00:00:00Z.
    package static let unixEpoch = EdmDateTime(uncheckedTicks: 621_355_968_000_000_000)

    /// The date `ticks` 100-ns intervals after 0001-01-01T00:00:00Z; nil outside ``min`` … ``max``.
    public init?(ticks: Int64) {
        guard ticks >= Self.min.ticks, ticks <= Self.max.ticks else { return nil }
        self.ticks = ticks
    }

    package init(uncheckedTicks: Int64) { self.ticks = uncheckedTicks }

    /// Builds a date from its UTC calendar fields; nil when a field is out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, fraction: Int64 = 0)
    {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysInMonth(year: year, month: month)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
            (0..<Self.ticksPerSecond).contains(fraction)
        else { return nil }
        let days = Int64(Self.daysSinceEpoch(year: year, month: month, day: day))
        let seconds = Int64(hour * 3600 + minute * 60 + second)
        self.ticks = days * Self.ticksPerDay + seconds * Self.ticksPerSecond + fraction
    }

    /// The current time, to the tick the system clock gives.
    public static func now() -> EdmDateTime {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let ticks = unixEpoch.ticks + Int64(spec.tv_sec) * ticksPerSecond + Int64(spec.tv_nsec) / 100
        return EdmDateTime(uncheckedTicks: ticks)
    }

    /// Whether `lhs` is earlier than `rhs`.
    public static func < (lhs: EdmDateTime, rhs: EdmDateTime) -> Bool { lhs.ticks < rhs.ticks }

    /// The calendar fields of this instant in UTC.
    public var components: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Int64) {
        let days = Int(ticks / Self.ticksPerDay)
        let (year, month, day) = Self.civil(fromDays: days)
        let inDay = ticks % Self.ticksPerDay
        let seconds = Int(inDay / Self.ticksPerSecond)
        return (year, month, day, seconds / 3600, seconds / 60 % 60, seconds % 60, inDay % Self.ticksPerSecond)
    }

    /// The date with this instant's day at 00:00:00.
    package var startOfDay: EdmDateTime { EdmDateTime(uncheckedTicks: ticks - ticks % Self.ticksPerDay) }

    /// Adds ticks; nil when the result leaves the representable range.
    package func adding(ticks delta: Int64) -> EdmDateTime? {
        let (sum, overflow) = ticks.addingReportingOverflow(delta)
        return overflow ? nil : EdmDateTime(ticks: sum)
    }

    /// The seven-digit lexical form: `2026-03-01T18:30:00.0000000Z`, as Azure writes it and the app reads it.
    public var description: String { String(decoding: formatted(), as: UTF8.self) }

    // MARK: Calendar arithmetic (proleptic Gregorian; Howard Hinnant's days-from-civil algorithm)

    package static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 0001-01-01 to the given date.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        // 306 = days from 0000-03-01 to 0001-01-01 in this scheme.
        return era * 146_097 + dayOfEra - 306
    }

    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 306
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
