import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// The app's own date parser judges `dates.format`, not our reading of its pattern.
///
/// The app parses `EventDate` with `NSDateFormatter`, pattern `yyyy-MM-dd'T'HH:mm:ss.SSSSSSS'Z'`, in
/// `en_US_POSIX` and UTC. That is ICU's parser, and so is Foundation's `DateFormatter` here. Every
/// date form we generate, serve or flag goes through it as Azure serves it (trailing zeros trimmed),
/// and the rule must say "unreadable" exactly where the parser refuses.
@Suite("the app's date parser judges dates.format")
struct AppDateParserTests {
    /// The app's formatter; `lenient` is the one setting the app's source leaves open, and it changes
    /// nothing (checked below).
    static func appParser(lenient: Bool = false) -> DateFormatter { AppDateFormatter.make(lenient: lenient) }

    /// Whole seconds at the edges of the calendar Azure keeps: leap days, 1601 and 9999.
    static let seconds = [
        "2027-03-09T16:53:00Z", "2026-07-01T04:34:00Z", "2024-02-29T23:59:59Z", "2000-02-29T12:00:00Z",
        "1601-01-01T00:00:00Z",
        "9999-12-31T23:59:58Z",
    ]
    /// Fractions in ticks whose served forms have 0 to 7 digits.
    static let fractions: [Int64] = [
        0, 1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 2_000_000, 5_000_000, 1_230_000, 1_234_560, 1_234_567,
        9_999_999,
    ]

    static var dates: [EdmDateTime] {
        seconds.flatMap { second in fractions.map { EdmDateTime(ticks: EdmDateTime.at(second).ticks + $0)! } }
    }

    /// The validator's `dates.format` messages for an event with this date, as `--date-format` says.
    static func messages(_ date: EdmDateTime, _ check: EventDateCheck = .app) -> [String] {
        var options = ValidationOptions()
        options.dateFormat = check
        options.rules = [.datesFormat]
        var entities = ValidationData.clean
        entities[2] = entities[2].setting("EventDate", .dateTime(date))
        return ValidationData.validate(entities, options: options).findings.map(\.message)
    }

    /// Whether the validator finds the event's date unreadable.
    static func flagged(_ date: EdmDateTime, _ check: EventDateCheck = .app) -> Bool { !messages(date, check).isEmpty }

    /// The instant the parser read, in ticks; ICU keeps milliseconds.
    static func ticks(_ parsed: Date) -> Int64 {
        EdmDateTime.unixEpoch.ticks + Int64((parsed.timeIntervalSince1970 * 1_000).rounded()) * 10_000
    }

    @Test(
        "a date is flagged exactly when the app's parser refuses its served form, and a read date is the right instant"
    )
    func servedForms() throws {
        let parser = Self.appParser()
        var refused = 0
        for date in Self.dates {
            let served = date.formattedTrimmed()
            let parsed = parser.date(from: served)
            #expect(Self.flagged(date) == (parsed == nil), "\(served): parsed \(String(describing: parsed))")
            if let parsed {
                #expect(Self.ticks(parsed) == date.ticks - date.ticks % 10_000, "\(served) read as \(parsed)")
            } else {
                refused += 1
            }
        }
        // The parser refuses exactly the whole seconds, served without a fraction.
        #expect(refused == Self.seconds.count)
    }

    @Test("the same dates as written in a file: the served form decides, whatever the file held")
    func writtenForms() throws {
        let parser = Self.appParser()
        for date in Self.dates {
            let full = String(decoding: date.formatted(), as: UTF8.self)
            for text in Set([full, date.formattedTrimmed()]) {
                let written = try EdmDateTime(parsing: text)
                #expect(Self.flagged(written) == (parser.date(from: written.formattedTrimmed()) == nil), "\(text)")
            }
            // Our own seven-digit form is always read: only the service's trimming loses it.
            #expect(parser.date(from: full) != nil, "\(full)")
        }
    }

    @Test("lenient or not, the parser reads and refuses the same served forms")
    func leniency() {
        let strict = Self.appParser()
        let lenient = Self.appParser(lenient: true)
        for date in Self.dates {
            let served = date.formattedTrimmed()
            #expect((strict.date(from: served) == nil) == (lenient.date(from: served) == nil), "\(served)")
        }
    }

    @Test("exact7 flags every served form that has not exactly seven digits")
    func exact7() {
        for date in Self.dates {
            let served = date.formattedTrimmed()
            let digits = served.count - "yyyy-MM-ddTHH:mm:ssZ".count - 1
            #expect(Self.flagged(date, .exact7) == (digits != 7), "\(served)")
            // The message counts the served digits and quotes the served form.
            for message in Self.messages(date, .exact7) {
                #expect(
                    message.contains(digits <= 0 ? "no fractional digits" : "has \(digits) fractional digit")
                        || message.contains("'\(served)', with \(digits) fractional digit"),
                    "\(message)"
                )
            }
        }
    }

    @Test(
        "every date seed writes with --date-format app is read by the app as Azure serves it",
        arguments: DateResolution.allCases
    )
    func generated(resolution: DateResolution) throws {
        let parser = Self.appParser()
        for (from, cutoff) in [
            ("2026-01-01T00:00:00Z", "2026-12-31T23:59:59.9999999Z"), ("2024-02-28T23:00:00Z", "2024-03-01T01:00:00Z"),
        ] {
            let window = try #require(
                DateWindow(from: .at(from), cutoff: .at(cutoff), resolution: resolution, format: .app)
            )
            let slots = window.slotCount
            for slot in Set([0, 1, 2, slots / 3, slots / 2, slots - 2, slots - 1].filter { $0 < slots }) {
                let date = window.date(at: slot)
                #expect(parser.date(from: date.formattedTrimmed()) != nil, "\(date.formattedTrimmed())")
                #expect(!Self.flagged(date) && !Self.flagged(date, .exact7), "\(date)")
            }
        }
        // The grid itself (--date-format azure) at second resolution or coarser is a whole second: refused.
        guard resolution != .tick else { return }
        let grid = try #require(
            DateWindow(
                from: .at("2026-01-01T00:00:00Z"),
                cutoff: .at("2026-01-02T00:00:00Z"),
                resolution: resolution,
                format: .azure
            )
        )
        let date = grid.date(at: 0)
        #expect(parser.date(from: date.formattedTrimmed()) == nil, "\(date.formattedTrimmed())")
        #expect(Self.flagged(date), "\(date)")
    }
}
