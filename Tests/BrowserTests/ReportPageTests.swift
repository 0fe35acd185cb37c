import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// `validate --report html`, judged as a person sees it: the built tools make the page, headless
/// Chromium renders it, and the tests read the rendered DOM (not our HTML) against counts computed
/// here from the data itself, with Foundation's calendar rather than ours.
@Suite(.enabled(if: HeadlessChromium.enabled, HeadlessChromium.howToEnable))
struct ReportPageTests {
    /// Seconds from 0001-01-01 to 1970-01-01, in ticks: to turn an EventDate into a Foundation `Date`.
    static let unixEpochTicks: Int64 = 621_355_968_000_000_000

    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    @Test func aStoreWithPlantedDefectsShowsEveryDefectAndTheStoresOwnCounts() async throws {
        try await withTemporaryDirectory { directory in
            let store = directory + "/store.sqlite"
            try Self.tool(
                "seed",
                ["--store", store, "--events", "100", "--from", "2026-01-01", "--seed", "42", "--quiet"]
                    + ["--samples", TestPaths.samples]
            )
            // Every date of the seeded store is seed's: the page shows when its events happen.
            try await Self.expectSeededHours(store: store, report: directory + "/seeded.html")
            let planted = try await Self.plantDefects(in: store)
            let report = directory + "/report.html"
            let run = try Self.tool("validate", ["--store", store, "--report", "html", "--output", report], status: 1)
            #expect(run.contains("error"), "the summary on stderr: \(run)")

            // What the store holds, counted here.
            let events = try await Self.events(in: store)
            var perMonth: [String: Int] = [:]
            for case .dateTime(let date) in events.compactMap({ $0["EventDate"] }) {
                let parts = Self.utc.dateComponents([.year, .month], from: Self.instant(date))
                perMonth[String(format: "%04d-%02d", parts.year!, parts.month!), default: 0] += 1
            }
            let undated = events.filter { if case .dateTime? = $0["EventDate"] { false } else { true } }.count

            let shot = directory + "/report.png"
            let seen = try HeadlessChromium.run([
                .viewport(width: 1200, height: 900),
                .navigate("file://" + report),
                .evaluate(
                    """
                    Array.from(document.querySelectorAll('details.rule tr.finding')).map(tr => ({
                      rule: tr.closest('details').dataset.rule,
                      partitionKey: tr.querySelector('.pk').textContent,
                      rowKey: tr.querySelector('.rk').textContent,
                      message: tr.querySelector('.message').textContent }))
                    """
                ),
                .evaluate(Self.tableNumbers("#months-table")),
                .evaluate(
                    """
                    Array.from(document.querySelectorAll('#months-chart rect.bar')).map(bar => {
                      const box = bar.getBoundingClientRect(); return [box.width, box.height] })
                    """
                ),
                .evaluate(
                    """
                    ['#rules', '#inputs', '#speakers', '#months-table', 'table.findings']
                      .map(selector => document.querySelector(selector).getBoundingClientRect().width)
                    """
                ),
                .evaluate(
                    """
                    Object.fromEntries(Array.from(document.querySelectorAll('#readability tbody tr'))
                      .map(tr => [tr.id, Number(tr.querySelector('td').textContent.replace(/,/g, ''))]))
                    """
                ),
                .evaluate(
                    "Array.from(document.querySelectorAll('#speakers img.thumb')).map(img => img.naturalWidth)"
                ),
                .evaluate("document.querySelectorAll('script').length"),
                .evaluate("document.getElementById('verdict').textContent"),
                .evaluate("document.getElementById('hours-table') === null"),
                .evaluate("document.getElementById('weekdays-table') === null"),
                .screenshot(shot),
            ])
            #expect(seen.errors.isEmpty, "console errors: \(seen.errors)")
            #expect(seen.offsite.isEmpty, "requests that left the machine: \(seen.offsite)")
            #expect(seen.requests.allSatisfy { $0.hasPrefix("file:") || $0.hasPrefix("data:") }, "\(seen.requests)")
            try #require(seen.results.count == 10)

            // Every planted defect is listed under its rule, with its keys.
            let listed = (seen.results[0].array ?? []).map {
                Listed(
                    rule: $0["rule"]?.string ?? "",
                    partitionKey: $0["partitionKey"]?.string ?? "",
                    rowKey: $0["rowKey"]?.string ?? ""
                )
            }
            for defect in planted {
                #expect(listed.contains(defect), "\(defect) is not on the page: \(listed)")
            }

            // The chart's numbers are the store's, and every bar has a size.
            let months = (seen.results[1].object ?? [:]).mapValues { $0.int ?? -1 }
            #expect(months == perMonth)
            let bars = seen.results[2].array ?? []
            #expect(bars.count == perMonth.count)
            #expect(bars.allSatisfy { ($0.array?[0].number ?? 0) > 0 && ($0.array?[1].number ?? 0) > 0 }, "\(bars)")
            #expect((seen.results[3].array ?? []).allSatisfy { ($0.number ?? 0) > 100 }, "\(seen.results[3])")

            // The dates as the app reads them: one planted whole second, one planted without a date.
            let readability = (seen.results[4].object ?? [:]).mapValues { $0.int ?? -1 }
            #expect(readability["dates-events"] == events.count)
            #expect(readability["dates-whole-second"] == 1)
            #expect(readability["dates-undated"] == undated)
            #expect(readability["dates-read-by-app"] == events.count - undated - 1)

            // The 8 sample speakers' photos, inline and decoded.
            let photos = seen.results[5].array ?? []
            #expect(photos.count == 8)
            #expect(photos.allSatisfy { ($0.number ?? 0) > 0 }, "\(photos)")
            #expect(seen.results[6] == .number(0), "the page has no script")
            #expect(seen.results[7].string?.contains("error") == true)

            // A planted date on a whole second is not seed's: the hours are no longer the generator's.
            #expect(seen.results[8] == .bool(true), "no hours chart for data not all seeded")
            #expect(seen.results[9] == .bool(true), "no weekdays chart for data not all seeded")

            try Self.expectNotBlank(shot)
            try NuHTMLChecker.check(file: report)
        }
    }

    @Test func hostileTextIsShownAsTextAndRunsNothing() async throws {
        try await withTemporaryDirectory { directory in
            // Under 64 characters, so that messages quote it whole.
            let hostile = "<script>window.pwned=1</script>\"q\" 's' & \u{202E}rtl\u{202C} 🎤𝄞"
            let speakerKey = "6f1c3b4e-8e0a-4a57-9a40-0b6a2a7f8c11"
            // Members in order (the annotation before its value), each value escaped by Foundation.
            func line(_ members: [(String, String)]) throws -> String {
                let pairs = try members.map { name, value in
                    let json = try JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
                    return "\"\(name)\":" + String(decoding: json, as: UTF8.self)
                }
                return "{" + pairs.joined(separator: ",") + "}"
            }
            let text = try [
                line([
                    ("PartitionKey", "speakers"), ("RowKey", speakerKey), ("Name", hostile), ("Title", hostile),
                    ("Bio", hostile), ("ImageUrl", "https://example.blob.core.windows.net/speakers/x.jpg"),
                ]),
                line([
                    ("PartitionKey", "Events"), ("RowKey", "0f8fad5b-d9cb-469f-a165-70867728950e"),
                    ("EventDate@odata.type", "Edm.DateTime"), ("EventDate", "2026-03-01T18:30:00.0000001Z"),
                    ("EventName", hostile), ("EventLocation", hostile), ("EventDescription", hostile),
                    ("SpeakerKey", speakerKey), ("SpeakerName", hostile + " (not quite)"),
                ]),
                line([("PartitionKey", hostile), ("RowKey", hostile), ("Note", hostile)]),
            ].joined(separator: "\n")
            let file = directory + "/hostile.ndjson"
            try Data((text + "\n").utf8).write(to: URL(fileURLWithPath: file))
            let report = directory + "/report.html"
            try Self.tool("validate", [file, "--report", "html", "--output", report], status: 1)

            let seen = try HeadlessChromium.run([
                .navigate("file://" + report),
                .evaluate("typeof window.pwned"),
                .evaluate("document.querySelectorAll('script').length"),
                .evaluate("document.querySelector('#speakers td.name').textContent"),
                .evaluate(
                    """
                    Array.from(document.querySelectorAll('details[data-rule="contract.partition"] tr.finding'))
                      .map(tr => [tr.querySelector('.pk').textContent, tr.querySelector('.rk').textContent])
                    """
                ),
                .evaluate(
                    """
                    Array.from(document.querySelectorAll('details[data-rule="references.name-mismatch"] .message'))
                      .map(span => span.textContent)
                    """
                ),
            ])
            #expect(seen.errors.isEmpty, "\(seen.errors)")
            #expect(seen.offsite.isEmpty, "\(seen.offsite)")
            #expect(seen.results[0] == .string("undefined"), "the payload ran")
            #expect(seen.results[1] == .number(0))
            #expect(seen.results[2] == .string(hostile))
            #expect(seen.results[3] == .array([.array([.string(hostile), .string(hostile)])]))
            let mismatch = seen.results[4].array?.first?.string ?? ""
            #expect(mismatch.contains(hostile), "\(mismatch)")
            try NuHTMLChecker.check(file: report)
        }
    }

    @Test func a100000FindingReportStaysSmallAndSaysHowManyItShows() async throws {
        try await withTemporaryDirectory { directory in
            // One speaker and 100,000 events on whole seconds: 100,000 dates.format findings.
            let file = directory + "/many.ndjson"
            let speakerKey = "6f1c3b4e-8e0a-4a57-9a40-0b6a2a7f8c11"
            var text =
                #"{"PartitionKey":"speakers","RowKey":"\#(speakerKey)","Name":"Ann","Title":"t","Bio":"b","ImageUrl":"https://example.blob.core.windows.net/speakers/a.jpg"}"#
                + "\n"
            text.reserveCapacity(100_000 * 330)
            for index in 0..<100_000 {
                let rowKey = String(format: "%08x-0000-4000-8000-%012x", index, index)
                let minute = index % (28 * 24 * 60)
                let date = String(
                    format: "2026-02-%02dT%02d:%02d:00Z",
                    minute / 1440 + 1,
                    minute / 60 % 24,
                    minute % 60
                )
                text +=
                    #"{"PartitionKey":"Events","RowKey":"\#(rowKey)","EventDate@odata.type":"Edm.DateTime","EventDate":"\#(date)","EventName":"Talk \#(index)","EventLocation":"Room","EventDescription":"d","SpeakerKey":"\#(speakerKey)","SpeakerName":"Ann"}"#
                    + "\n"
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: file))
            let report = directory + "/report.html"
            try Self.tool("validate", [file, "--report", "html", "--output", report], status: 1)
            let size = try FileManager.default.attributesOfItem(atPath: report)[.size] as? Int ?? 0
            #expect(size < 3_000_000, "\(size) bytes")

            let seen = try HeadlessChromium.run([
                .navigate("file://" + report),
                .evaluate("document.querySelectorAll('tr.finding').length"),
                .evaluate("document.querySelector('details[data-rule=\"dates.format\"] .shown').textContent"),
                .evaluate("document.getElementById('error-count').textContent"),
                .evaluate("document.querySelector('#dates-whole-second td').textContent"),
            ])
            #expect(seen.errors.isEmpty, "\(seen.errors)")
            #expect(seen.results[0] == .number(500))
            #expect(seen.results[1] == .string("500 shown of 100,000"))
            #expect(seen.results[2] == .string("100,000"))
            #expect(seen.results[3] == .string("100,000"))
        }
    }

    // MARK: Helpers

    /// A date's instant, for Foundation's calendar.
    static func instant(_ date: EdmDateTime) -> Date {
        Date(timeIntervalSince1970: Double(date.ticks - Self.unixEpochTicks) / 10_000_000)
    }

    /// Validates a store that holds only seeded events to `report`, and checks the page's hours of the
    /// day and days of the week against Foundation's calendar.
    static func expectSeededHours(store: String, report: String) async throws {
        try Self.tool("validate", ["--store", store, "--report", "html", "--output", report])
        var perHour: [String: Int] = [:]
        var perWeekday: [String: Int] = [:]
        let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]  // Foundation's 1...7
        for case .dateTime(let date) in try await Self.events(in: store).compactMap({ $0["EventDate"] }) {
            let parts = Self.utc.dateComponents([.hour, .weekday], from: Self.instant(date))
            perHour[String(format: "%02d", parts.hour!), default: 0] += 1
            perWeekday[weekdayNames[parts.weekday! - 1], default: 0] += 1
        }
        let seen = try HeadlessChromium.run([
            .navigate("file://" + report),
            .evaluate(Self.tableNumbers("#hours-table")),
            .evaluate(Self.tableNumbers("#weekdays-table")),
        ])
        #expect(seen.errors.isEmpty, "console errors: \(seen.errors)")
        try #require(seen.results.count == 2)
        #expect((seen.results[0].object ?? [:]).mapValues { $0.int ?? -1 }.filter { $0.value > 0 } == perHour)
        #expect((seen.results[1].object ?? [:]).mapValues { $0.int ?? -1 }.filter { $0.value > 0 } == perWeekday)
    }

    /// A planted defect as the page lists it.
    struct Listed: Equatable, CustomStringConvertible {
        var rule: String
        var partitionKey: String
        var rowKey: String
        var description: String { "\(rule) \(partitionKey)/\(rowKey)" }
    }

    /// Changes the seeded store: one event's date on a whole second, an event of a speaker who does
    /// not exist, an event without a date, an entity in a partition the contract does not know, and a
    /// speaker whose photo is not there. Returns the findings they must give.
    static func plantDefects(in path: String) async throws -> [Listed] {
        let store = try Store(path)
        var first: Entity?
        for try await entity in store.entities(in: "events", partition: "Events") {
            first = entity
            break
        }
        var imageUrl: String?
        for try await entity in store.entities(in: "events", partition: "speakers") {
            if case .string(let url)? = entity["ImageUrl"] { imageUrl = url }
            break
        }
        // A blob URL of this account and container, naming a blob that is not there.
        let url = try #require(imageUrl)
        let missingPhoto = String(url[..<(url.lastIndex(of: "/") ?? url.endIndex)]) + "/nobody.jpg"
        var wholeSecond = try #require(first)
        wholeSecond.properties = wholeSecond.properties.map {
            $0.name == "EventDate"
                ? Property("EventDate", .dateTime(EdmDateTime(year: 2026, month: 3, day: 4, hour: 18)!)) : $0
        }
        let orphanKey = "0f8fad5b-d9cb-469f-a165-70867728950e"
        let undatedKey = "1f8fad5b-d9cb-469f-a165-70867728950e"
        let photoless = "2f1c3b4e-8e0a-4a57-9a40-0b6a2a7f8c11"
        func event(_ rowKey: String, date: EdmDateTime?, speaker: String) -> Entity {
            Entity(
                partitionKey: "Events",
                rowKey: rowKey,
                properties: (date.map { [Property("EventDate", .dateTime($0))] } ?? []) + [
                    Property("EventName", .string("Planted")), Property("EventLocation", .string("Room 1")),
                    Property("EventDescription", .string("A planted defect")),
                    Property("SpeakerKey", .string(speaker)), Property("SpeakerName", .string("Nobody")),
                ]
            )
        }
        let speaker = try #require(wholeSecond["SpeakerKey"].flatMap { if case .string(let s) = $0 { s } else { nil } })
        try await store.write(
            [
                wholeSecond,
                event(
                    orphanKey,
                    date: EdmDateTime(year: 2026, month: 7, day: 15, hour: 10, fraction: 1),
                    speaker: "99999999-0000-4000-8000-000000000000"
                ),
                event(undatedKey, date: nil, speaker: speaker),
            ],
            to: "events"
        )
        try await store.write(
            [
                Entity(
                    partitionKey: "speakers",
                    rowKey: photoless,
                    properties: [
                        Property("Name", .string("Pat Photoless")), Property("Title", .string("Speaker")),
                        Property("Bio", .string("No photo.")),
                        Property("ImageUrl", .string(missingPhoto)),
                    ]
                )
            ],
            to: "events"
        )
        try await store.write([Entity(partitionKey: "events", rowKey: "stray", properties: [])], to: "events")
        return [
            Listed(rule: "dates.format", partitionKey: "Events", rowKey: wholeSecond.rowKey),
            Listed(rule: "references.orphan", partitionKey: "Events", rowKey: orphanKey),
            Listed(rule: "dates.missing", partitionKey: "Events", rowKey: undatedKey),
            Listed(rule: "contract.partition", partitionKey: "events", rowKey: "stray"),
            Listed(rule: "photos.missing", partitionKey: "speakers", rowKey: photoless),
        ]
    }

    /// JavaScript for a chart's table of numbers, as {label: number}.
    static func tableNumbers(_ table: String) -> String {
        """
        Object.fromEntries(Array.from(document.querySelectorAll('\(table) tbody tr'))
          .map(tr => [tr.querySelector('th').textContent, Number(tr.querySelector('td').textContent.replace(/,/g, ''))]))
        """
    }

    /// Every event of the store, as the store holds it.
    static func events(in path: String) async throws -> [Entity] {
        let store = try Store(path, readOnly: true)
        var events: [Entity] = []
        for try await entity in store.entities(in: "events", partition: "Events") { events.append(entity) }
        return events
    }

    /// Runs a built tool and expects its exit status; returns what it wrote on stderr.
    @discardableResult
    static func tool(_ name: String, _ arguments: [String], status: Int32 = 0) throws -> String {
        let executable = try BuiltExecutable.locate(name).get()
        let run = try ChildProcess.run(executable, arguments, environment: ProcessInfo.processInfo.environment)
        let stderr = String(decoding: run.stderr, as: UTF8.self)
        try #require(!run.killedBySignal && run.status == status, "\(name) exited \(run.status): \(stderr)")
        return stderr
    }

    /// Fails unless the PNG shows something: its pixels, inflated, hold many different values (a blank
    /// page is one colour, whose rows compress to a handful of byte values).
    static func expectNotBlank(_ png: String) throws {
        let python = try #require(HeadlessChromium.python)
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
            pos, idat = 8, b''
            while pos < len(data):
                length, kind = struct.unpack('>I4s', data[pos:pos + 8])
                if kind == b'IDAT': idat += data[pos + 8:pos + 8 + length]
                pos += 12 + length
            print(len(set(zlib.decompress(idat))))
            """
        let run = try ChildProcess.run(python, ["-c", script, png], environment: HeadlessChromium.pythonEnvironment)
        let distinct = Int(String(decoding: run.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        #expect((distinct ?? 0) > 32, "the screenshot looks blank: \(distinct ?? -1) distinct byte values")
    }
}
