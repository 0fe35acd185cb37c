import Foundation
import SpeakEasyData
import TestSupport
import Testing

@testable import SpeakEasyValidation

/// The HTML report's writer and the overview it draws, without a browser (BrowserTests render it).
@Suite("HTML report")
struct HTMLReportWriterTests {
    static func html(_ report: ValidationReport) -> String {
        String(decoding: HTMLReportWriter(toolVersion: "1.0.0").render(report), as: UTF8.self)
    }

    @Test("hostile text in findings is escaped: no markup of its own, control characters as escapes")
    func escaping() {
        let html = Self.html(SampleReports.tricky)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("&lt;&amp;&gt; 100%"))
        #expect(html.contains("&quot;Bart Tubalinal&quot;"))
        #expect(html.contains(#"line two\r\nCR-LF"#), "control characters as escapes")
        #expect(html.contains("😀"))
        #expect(!html.contains("<&>"))
        #expect(!html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
        #expect(!html.contains("<script"), "the page carries no script")
    }

    @Test("a script in a name stays text, in elements and in attributes")
    func scriptInData() {
        let payload = "<script>window.pwned=1</script>\"' onload=\"x"
        let report = ValidationReport(
            rules: [Rule.contractPartition.descriptor],
            findings: [
                Finding(
                    rule: payload,
                    severity: .error,
                    message: payload,
                    location: FindingLocation(.table(payload), partitionKey: payload, rowKey: payload)
                )
            ],
            inputs: [payload],
            entitiesChecked: 1,
            truncated: false
        )
        let html = Self.html(report)
        #expect(!html.contains("<script"))
        #expect(!html.contains("\"' onload"))
        #expect(html.contains("&lt;script&gt;window.pwned=1&lt;/script&gt;&quot;&#39; onload=&quot;x"))
    }

    @Test("100,000 findings: 500 a rule shown, the page under a megabyte, and it says how many")
    func manyFindings() {
        let findings = (0..<100_000).map { index in
            Finding(
                rule: "dates.format",
                severity: .error,
                message: "EventDate '2026-02-01T10:00:00Z' lies on a whole second",
                location: FindingLocation(
                    .file(path: "events.ndjson", line: index + 2),
                    partitionKey: "Events",
                    rowKey: "0f8fad5b-d9cb-469f-a165-\(String(index).leftPadded(12))"
                )
            )
        }
        let report = ValidationReport(
            rules: [Rule.datesFormat.descriptor],
            findings: findings,
            inputs: ["events.ndjson"],
            entitiesChecked: 100_001,
            truncated: false
        )
        let bytes = HTMLReportWriter(toolVersion: "1.0.0").render(report)
        #expect(bytes.count < 1_000_000, "\(bytes.count) bytes")
        let html = String(decoding: bytes, as: UTF8.self)
        #expect(html.components(separatedBy: "<tr class=\"finding\">").count - 1 == HTMLReportWriter.findingsPerRule)
        #expect(html.contains("500 shown of 100,000"))
        #expect(!html.contains(" open>"), "a long list starts folded")
    }

    @Test("the overview counts months, hours, weekdays, served dates and speakers from the one pass")
    func overview() throws {
        var entities = ValidationData.clean
        // A whole second (Azure serves …:00Z), a trimmed fraction, no Z, and no date at all.
        entities.append(
            ValidationData.event("e0000000-0000-4000-8000-000000000004", date: "2026-04-02T10:00:00.0000000Z")
        )
        entities.append(
            ValidationData.event("e0000000-0000-4000-8000-000000000005", date: "2026-04-03T10:00:00.5000000Z")
        )
        entities.append(
            ValidationData.event("e0000000-0000-4000-8000-000000000006", date: "2026-05-04T10:00:00.0000001")
        )
        entities.append(ValidationData.event("e0000000-0000-4000-8000-000000000007").setting("EventDate", nil))
        entities.append(ValidationData.speaker("2c8e4e70-3d90-4da0-9e3c-8b2f4f5e6d7c", "Idle Ida", photo: "I.jpg"))
        var options = ValidationOptions()
        options.collectsOverview = true
        var validator = Validator(options: options)
        validator.begin(.file("data.ndjson"))
        for (index, entity) in entities.enumerated() { validator.check(entity, line: index + 1) }
        validator.finishReferences()
        let overview = validator.overview()

        #expect(overview.events == 7)
        #expect(
            overview.months.map { "\($0.year)-\($0.month) \($0.events)" } == ["2026-3 2", "2026-4 3", "2026-5 1"]
        )
        #expect(overview.dates.dated == 6)
        #expect(overview.dates.undated == 1)
        #expect(overview.dates.wholeSecond == 1)
        #expect(overview.dates.trimmedWithFraction == 1)
        #expect(overview.dates.sevenDigits == 4)
        #expect(overview.dates.unzoned == 1)
        #expect(overview.dates.readByApp == 4)
        #expect(!overview.looksSeeded, "a whole second and a .5 are not seed's mark")
        // 2026-03-01 (twice) is a Sunday; 04-01 a Wednesday, 04-02 a Thursday, 04-03 a Friday, 05-04 a Monday.
        #expect(overview.weekdays == [1, 0, 1, 1, 1, 0, 2])
        var hours = [Int](repeating: 0, count: 24)
        hours[9] = 2
        hours[18] = 1
        hours[10] = 3
        #expect(overview.hours == hours)
        #expect(overview.speakers.map(\.name) == ["Bart Tubalinal", "Darya Orlova"])
        #expect(overview.speakers.map(\.events) == [6, 1])
        #expect(overview.speakersWithoutEvents.map(\.name) == ["Idle Ida"])
        #expect(overview.eventsWithoutSpeaker == 0)
    }

    @Test("every rule's findings start folded, as the README says, however few there are")
    func findingsFolded() {
        let html = Self.html(SampleReports.tricky)
        #expect(html.contains("<details class=\"rule\""))
        #expect(!html.contains(" open>"), "a rule's list starts folded")
    }

    /// The overview of `dated` events on seed's mark (one tick past a minute) and `unmarked` on a
    /// whole second.
    static func overview(seeded dated: Int, unmarked: Int) -> ReportOverview {
        var entities = [ValidationData.speaker(ValidationData.bartKey, "Bart Tubalinal", photo: "BTubalinal.jpg")]
        for index in 0..<(dated + unmarked) {
            let second = index < dated ? "00.0000001" : "00.0000000"
            let key = "e0000000-0000-4000-8000-\(String(index).leftPadded(12))"
            let minute = String(index % 60).leftPadded(2)
            entities.append(ValidationData.event(key, date: "2026-03-02T10:\(minute):\(second)Z"))
        }
        var options = ValidationOptions()
        options.collectsOverview = true
        var validator = Validator(options: options)
        validator.begin(.file("data.ndjson"))
        for (index, entity) in entities.enumerated() { validator.check(entity, line: index + 1) }
        validator.finishReferences()
        return validator.overview()
    }

    static func page(_ overview: ReportOverview) -> String {
        var report = ValidationReport(
            rules: [Rule.datesFormat.descriptor],
            findings: [],
            inputs: ["data.ndjson"],
            entitiesChecked: overview.events + 1,
            truncated: false
        )
        report.overview = overview
        return html(report)
    }

    @Test("the hours and weekdays of seeded events show only when every dated event carries seed's mark")
    func seededSectionOnlyForSeededData() {
        let seeded = Self.overview(seeded: 10, unmarked: 0)
        #expect(seeded.looksSeeded)
        #expect(Self.page(seeded).contains("id=\"hours-table\""))
        let mixed = Self.overview(seeded: 9, unmarked: 1)
        #expect(!mixed.looksSeeded, "one event in ten is not seed's")
        #expect(!Self.page(mixed).contains("id=\"hours-table\""))
        #expect(!Self.page(mixed).contains("When the seeded events happen"))
    }

    /// The inputs table's rows, each as its cells' text.
    static func inputCells(_ html: String) -> [[String]] {
        guard let table = html.components(separatedBy: "<table id=\"inputs\">").dropFirst().first,
            let body = table.components(separatedBy: "</table>").first
        else { return [] }
        return body.components(separatedBy: "<tr>").dropFirst().map { row in
            row.components(separatedBy: "<td").dropFirst().map { cell in
                // The cell's text: what lies between its tags, up to its </td>.
                let inner = cell.drop { $0 != ">" }.dropFirst().components(separatedBy: "</td>").first ?? ""
                var text = ""
                var inTag = false
                for character in inner {
                    if character == "<" {
                        inTag = true
                    } else if character == ">" {
                        inTag = false
                    } else if !inTag {
                        text.append(character)
                    }
                }
                return text
            }
        }
        .filter { !$0.isEmpty }  // the header's row has no <td>
    }

    @Test("the Inputs table has no blank cell: a store's partitions have no Size column, files their entities")
    func inputsHaveNoBlankCells() async throws {
        // A store: partitions with their entities, and no size.
        var overview = ReportOverview()
        overview.inputs = [
            ReportOverview.Input(name: "speakeasy.sqlite: events/Events", entities: 1_000),
            ReportOverview.Input(name: "speakeasy.sqlite: events/speakers", entities: 8),
        ]
        let store = Self.inputCells(Self.page(overview))
        #expect(store == [["speakeasy.sqlite: events/Events", "1,000"], ["speakeasy.sqlite: events/speakers", "8"]])
        #expect(!Self.page(overview).contains(">Size</th>"))

        // Files: their size and the entities read from each.
        try await withTemporaryDirectory { directory in
            let first = directory + "/speakers.ndjson"
            let second = directory + "/events.ndjson"
            func line(_ entity: Entity) -> String {
                let cells = ["\"PartitionKey\":\"\(entity.partitionKey)\"", "\"RowKey\":\"\(entity.rowKey)\""]
                return "{" + cells.joined(separator: ",") + "}\n"
            }
            let clean = ValidationData.clean
            try (clean[0...1].map(line).joined()).write(toFile: first, atomically: true, encoding: .utf8)
            try (clean[2...].map(line).joined()).write(toFile: second, atomically: true, encoding: .utf8)
            var options = ValidationOptions()
            options.collectsOverview = true
            let report = try await FileValidation.run([first, second], options: options)
            let inputs = try #require(report.overview?.inputs)
            #expect(inputs.map(\.entities) == [2, clean.count - 2])
            let cells = Self.inputCells(Self.html(report))
            #expect(cells.count == 2)
            #expect(cells.allSatisfy { $0.count == 3 && !$0.contains("") }, "\(cells)")
        }
    }

    @Test("the banner writes its numbers with the tables' separators")
    func bannerSeparators() {
        let findings = (0..<1_211).map { index in
            Finding(
                rule: "dates.format",
                severity: .error,
                message: "EventDate lies on a whole second",
                location: FindingLocation(.file(path: "events.ndjson", line: index + 2))
            )
        }
        let report = ValidationReport(
            rules: [Rule.datesFormat.descriptor],
            findings: findings,
            inputs: ["events.ndjson"],
            entitiesChecked: 1_001_000,
            truncated: false
        )
        let html = Self.html(report)
        #expect(html.contains(">1,211 errors in 1,001,000 entities (events.ndjson)</p>"), "the banner")
        #expect(html.contains("<title>validate: 1,211 errors in 1,001,000 entities"))
        #expect(html.contains("1,211 findings"), "a rule's count")
        // The text report's summary keeps its bytes.
        #expect(ValidationSummary.line(report) == "1211 errors in 1001000 entities (events.ndjson)")
    }

    @Test("bars keep their order and scale, and a small value still shows")
    func barChart() {
        let chart = BarChart(labels: ["a", "b", "c"], values: [1000, 0, 1])
        #expect(chart.bars.map(\.height) == [BarChart.plotHeight, 0, 1])
        #expect(chart.bars.map(\.x) == chart.bars.map(\.x).sorted())
        #expect(chart.bars.allSatisfy { $0.width > 0 && $0.y + $0.height == BarChart.plotHeight })
    }

    @Test("only images by their bytes become thumbnails, whatever the blob says it is")
    func thumbnailTypes() {
        #expect(SpeakerThumbnails.mediaType(of: [0xFF, 0xD8, 0xFF, 0xE0]) == "image/jpeg")
        #expect(SpeakerThumbnails.mediaType(of: Array("GIF89a...".utf8)) == "image/gif")
        #expect(SpeakerThumbnails.mediaType(of: Array("<svg onload=alert(1)>".utf8)) == nil)
        #expect(SpeakerThumbnails.mediaType(of: []) == nil)
    }
}
