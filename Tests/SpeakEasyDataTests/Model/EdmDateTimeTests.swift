import SpeakEasyData
import TestSupport
import Testing

@Suite("EdmDateTime parsing and formatting")
struct EdmDateTimeTests {
    @Test(
        "0 to 7 fractional digits parse to exact ticks",
        arguments: [
            ("2012-11-10T03:04:05Z", 0),
            ("2012-11-10T03:04:05.2Z", 2_000_000),
            ("2012-11-10T03:04:05.25Z", 2_500_000),
            ("2012-11-10T03:04:05.123Z", 1_230_000),
            ("2012-11-10T03:04:05.0001Z", 1_000),
            ("2012-11-10T03:04:05.12345Z", 1_234_500),
            ("2012-11-10T03:04:05.000001Z", 10),
            ("2012-11-10T03:04:05.1234567Z", 1_234_567),
            ("2012-11-10T03:04:05.0000001Z", 1),
            ("2012-11-10T03:04:05.9999999Z", 9_999_999),
        ] as [(String, Int64)]
    )
    func fractionalDigits(text: String, fraction: Int64) throws {
        let whole = try #require(EdmDateTime(year: 2012, month: 11, day: 10, hour: 3, minute: 4, second: 5))
        let parsed = try EdmDateTime(parsing: text)
        #expect(parsed.ticks == whole.ticks + fraction)
        #expect(parsed.components.fraction == fraction)
    }

    @Test(
        "always formats seven fractional digits; trimmed form matches Azure",
        arguments: [
            ("2012-11-10T03:04:05.2Z", "2012-11-10T03:04:05.2000000Z", "2012-11-10T03:04:05.2Z"),
            ("2012-01-25T00:00:00Z", "2012-01-25T00:00:00.0000000Z", "2012-01-25T00:00:00Z"),
            ("2012-01-25T00:00:00.0000000Z", "2012-01-25T00:00:00.0000000Z", "2012-01-25T00:00:00Z"),
            ("2017-01-05T03:27:08.7040706Z", "2017-01-05T03:27:08.7040706Z", "2017-01-05T03:27:08.7040706Z"),
            ("2017-01-05T03:26:03.516682Z", "2017-01-05T03:26:03.5166820Z", "2017-01-05T03:26:03.516682Z"),
            ("2026-03-01T09:30:00.0000001Z", "2026-03-01T09:30:00.0000001Z", "2026-03-01T09:30:00.0000001Z"),
            ("2026-03-01T09:30:00.1230000Z", "2026-03-01T09:30:00.1230000Z", "2026-03-01T09:30:00.123Z"),
        ]
    )
    func formatting(input: String, full: String, trimmed: String) throws {
        let date = try EdmDateTime(parsing: input)
        #expect(String(decoding: date.formatted(), as: UTF8.self) == full)
        #expect(date.description == full)
        #expect(date.formattedTrimmed() == trimmed)
        #expect(date.formatted().count == 28)
    }

    /// The copy paths spell a parsed date again from its text; it must be what formatting the
    /// parsed value writes, for every width of fraction, with trailing zeros, and without the `Z`.
    @Test("a parsed text spelled again from its digits is the value's lexical form, trimmed or not")
    func lexicalFormOfParsedText() throws {
        var texts = [
            "2012-11-10T03:04:05Z", "2012-11-10T03:04:05", "2012-11-10T03:04:05.0Z", "2012-11-10T03:04:05.0000000Z",
            "2012-11-10T03:04:05.1000000Z", "2012-11-10T03:04:05.1020Z", "0001-01-01T00:00:00Z",
            "9999-12-31T23:59:59.9999999Z", "2024-02-29T12:00:00.05", "2026-11-29T08:51:39.9191834Z",
        ]
        for _ in 0..<2_000 {
            let ticks = Int64.random(in: 0...EdmDateTime.max.ticks)
            let digits = Int.random(in: 0...7)
            var text = Array(EdmDateTime(uncheckedTicks: ticks).formatted().prefix(19))
            if digits > 0 { text += Array(".".utf8) + (0..<digits).map { _ in UInt8.random(in: 48...57) } }
            if Bool.random() { text += Array("Z".utf8) }
            texts.append(String(decoding: text, as: UTF8.self))
        }
        for text in texts {
            let bytes = Array(text.utf8)
            let value = try bytes.withUnsafeBytes { try EdmDateTime.parse($0) }
            for trimmed in [false, true] {
                var expected: [UInt8] = []
                value.append(to: &expected, trimmed: trimmed)
                var spelled: [UInt8] = []
                bytes.withUnsafeBytes { EdmDateTime.appendLexicalForm(ofParsed: $0, to: &spelled, trimmed: trimmed) }
                #expect(spelled == expected, "\(text), trimmed: \(trimmed)")
            }
        }
    }

    @Test("append(to:) writes the same bytes as formatted() after existing content")
    func appendToBuffer() {
        let date = EdmDateTime.at("2012-11-10T03:04:05.2Z")
        var buffer = Array("x=".utf8)
        date.append(to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "x=2012-11-10T03:04:05.2000000Z")
        var trimmed = [UInt8]()
        date.append(to: &trimmed, trimmed: true)
        #expect(String(decoding: trimmed, as: UTF8.self) == "2012-11-10T03:04:05.2Z")
    }

    @Test("minimum and maximum dates format, parse and bound the range")
    func minimumAndMaximum() throws {
        #expect(EdmDateTime.min.ticks == 0)
        #expect(EdmDateTime.min.description == "0001-01-01T00:00:00.0000000Z")
        #expect(EdmDateTime.min.formattedTrimmed() == "0001-01-01T00:00:00Z")
        #expect(EdmDateTime.max.ticks == 3_155_378_975_999_999_999)
        #expect(EdmDateTime.max.description == "9999-12-31T23:59:59.9999999Z")
        #expect(try EdmDateTime(parsing: "0001-01-01T00:00:00Z") == .min)
        #expect(try EdmDateTime(parsing: "9999-12-31T23:59:59.9999999Z") == .max)
        #expect(EdmDateTime(ticks: -1) == nil)
        #expect(EdmDateTime(ticks: EdmDateTime.max.ticks + 1) == nil)
        #expect(EdmDateTime.max.adding(ticks: 1) == nil)
        #expect(EdmDateTime.min.adding(ticks: -1) == nil)
        #expect(EdmDateTime.max.adding(ticks: .max) == nil)
        #expect(EdmDateTime.min.adding(ticks: 1)?.ticks == 1)
    }

    @Test(
        "known instants have the .NET tick values",
        arguments: [
            ("1970-01-01T00:00:00Z", 621_355_968_000_000_000),
            ("1601-01-01T00:00:00Z", 504_911_232_000_000_000),
            ("0001-01-02T00:00:00Z", 864_000_000_000),
            ("2000-01-01T00:00:00Z", 630_822_816_000_000_000),
        ] as [(String, Int64)]
    )
    func knownTicks(text: String, ticks: Int64) throws {
        #expect(try EdmDateTime(parsing: text).ticks == ticks)
    }

    @Test("the named constants are the instants they claim to be")
    func namedConstants() {
        #expect(EdmDateTime.unixEpoch == .at("1970-01-01T00:00:00Z"))
        #expect(EdmDateTime.azureMinimum == .at("1601-01-01T00:00:00Z"))
        #expect(EdmDateTime.ticksPerDay == 864_000_000_000)
    }

    @Test(
        "leap days exist exactly in leap years",
        arguments: [
            ("2024-02-29T00:00:00Z", true),
            ("2000-02-29T12:00:00Z", true),
            ("1600-02-29T00:00:00Z", true),
            ("2023-02-29T00:00:00Z", false),
            ("1900-02-29T00:00:00Z", false),
            ("2100-02-29T00:00:00Z", false),
        ]
    )
    func leapDays(text: String, valid: Bool) {
        let parsed = try? EdmDateTime(parsing: text)
        #expect((parsed != nil) == valid)
        if let parsed {
            #expect(parsed.components.month == 2)
            #expect(parsed.components.day == 29)
            #expect(parsed.adding(ticks: EdmDateTime.ticksPerDay)?.components.month == 3)
        }
    }

    @Test("calendar fields survive from and to ticks, across month and year ends")
    func calendarFields() throws {
        let date = try #require(
            EdmDateTime(year: 2024, month: 12, day: 31, hour: 23, minute: 59, second: 59, fraction: 9_999_999)
        )
        let next = try #require(date.adding(ticks: 1))
        #expect(next == .at("2025-01-01T00:00:00Z"))
        let c = date.components
        #expect(
            c.year == 2024 && c.month == 12 && c.day == 31 && c.hour == 23 && c.minute == 59 && c.second == 59
                && c.fraction == 9_999_999
        )
        #expect(date.startOfDay == .at("2024-12-31T00:00:00Z"))
        #expect(EdmDateTime(year: 2024, month: 13, day: 1) == nil)
        #expect(EdmDateTime(year: 2024, month: 4, day: 31) == nil)
        #expect(EdmDateTime(year: 0, month: 1, day: 1) == nil)
        #expect(EdmDateTime(year: 10000, month: 1, day: 1) == nil)
        #expect(EdmDateTime(year: 2024, month: 1, day: 1, fraction: 10_000_000) == nil)
    }

    @Test("random ticks survive format then parse, in both forms")
    func randomRoundTrip() throws {
        var random = SplitMix64(seed: 20_121_110)
        for _ in 0..<20_000 {
            let ticks = Int64(random.uniform(below: UInt64(EdmDateTime.max.ticks) + 1))
            let date = try #require(EdmDateTime(ticks: ticks))
            let full = try EdmDateTime(parsingUTF8: date.formatted())
            let trimmed = try EdmDateTime(parsing: date.formattedTrimmed())
            #expect(full == date, "\(ticks)")
            #expect(trimmed == date, "\(ticks)")
            let c = date.components
            #expect(
                EdmDateTime(
                    year: c.year,
                    month: c.month,
                    day: c.day,
                    hour: c.hour,
                    minute: c.minute,
                    second: c.second,
                    fraction: c.fraction
                ) == date
            )
        }
    }

    @Test("a missing Z means UTC")
    func missingZ() throws {
        #expect(try EdmDateTime(parsing: "2012-11-10T03:04:05.2") == EdmDateTime(parsing: "2012-11-10T03:04:05.2Z"))
        #expect(try EdmDateTime(parsing: "2012-11-10T03:04:05") == EdmDateTime(parsing: "2012-11-10T03:04:05Z"))
    }

    @Test("eight fractional digits are rejected")
    func eightDigits() {
        let error = #expect(throws: EdmDateTime.ParseError.self) {
            try EdmDateTime(parsing: "2012-11-10T03:04:05.12345678Z")
        }
        #expect(error?.text == "2012-11-10T03:04:05.12345678Z")
        #expect(error?.reason.contains("7") == true)
    }

    @Test(
        "garbage is rejected with a ParseError naming the text",
        arguments: [
            "", "Z", "hello", "2012-11-10", "2012-11-10T03:04Z", "2012-11-10 03:04:05Z", "2012/11/10T03:04:05Z",
            "2012-11-10T03:04:05.Z", "2012-11-10T03:04:05.", "2012-11-10T03:04:05ZZ", "2012-11-10T03:04:05+01:00",
            "2012-11-10T03:04:05.-1Z", "2012-11-10T03:04:05.12a4Z", "2012-13-10T03:04:05Z", "2012-00-10T03:04:05Z",
            "2012-11-00T03:04:05Z", "2012-11-31T03:04:05Z", "2012-11-10T24:00:00Z", "2012-11-10T03:60:05Z",
            "2012-11-10T03:04:60Z", "0000-01-01T00:00:00Z", "-012-11-10T03:04:05Z", "2012-11-10t03:04:05Z",
            " 2012-11-10T03:04:05Z", "2012-11-10T03:04:05Z ", "２０１２-11-10T03:04:05Z", "20121-11-10T03:04:05Z",
        ]
    )
    func garbage(text: String) {
        let error = #expect(throws: EdmDateTime.ParseError.self) { try EdmDateTime(parsing: text) }
        #expect(error?.text == text)
        #expect(error?.description.contains("Edm.DateTime") == true)
    }

    @Test(
        "a parsed date remembers its lexical shape, which equality ignores",
        arguments: [
            ("2012-11-10T03:04:05.2000000Z", 7, true, true), ("2012-11-10T03:04:05.2Z", 1, true, false),
            ("2012-11-10T03:04:05Z", 0, true, false), ("2012-11-10T03:04:05.2000000", 7, false, false),
        ] as [(String, Int, Bool, Bool)]
    )
    func lexicalShape(text: String, digits: Int, zone: Bool, sevenDigits: Bool) throws {
        let date = try EdmDateTime(parsing: text)
        #expect(date.lexicalShape == EdmDateTime.LexicalShape(fractionDigits: Int8(digits), hasZone: zone))
        #expect(date.lexicalShape?.isSevenDigitForm == sevenDigits)
        let made = try #require(EdmDateTime(ticks: date.ticks))
        #expect(made.lexicalShape == nil)
        #expect(made == date && made.hashValue == date.hashValue)
    }
}
