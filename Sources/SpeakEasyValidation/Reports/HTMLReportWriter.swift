import Mustache
import SpeakEasyModel

/// The report for people to open in a browser: one self-contained HTML file, for a CI artifact or an
/// e-mail. The verdict first, then the data's picture when the run collected it (events per month,
/// how the app reads the dates, events per speaker with their photos), then every finding by rule.
///
/// The page is rendered from a Mustache template (which escapes every value) from the
/// plain values made here; nothing in it loads from elsewhere, and it has no script. A rule's list
/// starts folded (`<details>`), so the summary table reads as an index, and shows at most
/// ``findingsPerRule`` findings, and the page at most ``findingsShown`` in all, saying how many are
/// shown of how many: 100,000 findings make a page of well under a megabyte that opens at once. The
/// JSON report lists them all.
public struct HTMLReportWriter: ReportWriter, Sendable {
    /// The most findings a rule's list shows.
    public static let findingsPerRule = 500
    /// The most findings the page shows in all.
    public static let findingsShown = 2_000
    /// Months past this are drawn as years, so that a bar stays wide enough to see.
    static let monthsDrawn = 240

    /// The version the page names.
    public var toolVersion: String

    /// A writer that names `toolVersion` as the tool's version.
    public init(toolVersion: String) { self.toolVersion = toolVersion }

    /// The page, one self-contained HTML document.
    public func render(_ report: ValidationReport) -> [UInt8] {
        let page = Page(report, toolVersion: toolVersion)
        let html = HTMLReportTemplate.library.render(page, withTemplate: "page") ?? ""
        return Array(html.utf8)
    }

    // MARK: The values the templates read (by name, through Mirror)

    struct Page {
        var toolVersion: String
        var verdict: String
        var verdictClass: String
        var truncated: Bool
        var truncationNote: String
        var errors: String
        var warnings: String
        var entitiesChecked: String
        var elapsed: [String]
        /// The rules that found something, and those that found nothing.
        var rules: [RuleRow]
        var found: Bool
        var passed: [RuleRow]
        var passedCount: [String]
        var inputs: [InputRow]
        /// Whether the inputs table has a Size column (files have sizes; a store's partitions none)
        /// and an Entities column (a report made without the overview has no counts).
        var sized: Bool
        var counted: Bool
        var overview: [OverviewView]
        var groups: [Group]

        init(_ report: ValidationReport, toolVersion: String) {
            self.toolVersion = toolVersion
            verdict = ValidationSummary.line(report, number: Self.number)
            verdictClass = report.errorCount > 0 ? "fail" : report.warningCount > 0 ? "warn" : "pass"
            truncated = report.truncated
            truncationNote = report.truncationNote
            errors = Self.number(report.errorCount)
            warnings = Self.number(report.warningCount)
            entitiesChecked = Self.number(report.entitiesChecked)
            elapsed = report.overview.map { [Self.seconds($0.elapsed)] } ?? []

            let ruleGroups = report.ruleGroups.filter { !$0.findings.isEmpty || !$0.rule.summary.isEmpty }
            let allRules = ruleGroups.enumerated().map { index, group in
                RuleRow(
                    index: index,
                    id: group.rule.id.forHTML,
                    severity: group.rule.severity.rawValue,
                    count: Self.number(group.findings.count),
                    summary: group.rule.summary,
                    clean: group.findings.isEmpty
                )
            }
            rules = allRules.filter { !$0.clean }
            found = !rules.isEmpty
            passed = allRules.filter(\.clean)
            passedCount = passed.isEmpty ? [] : [ValidationSummary.count(passed.count, "rule", number: Self.number)]
            var budget = HTMLReportWriter.findingsShown
            groups = ruleGroups.enumerated().compactMap { index, group in
                guard !group.findings.isEmpty else { return nil }
                let shown = min(group.findings.count, HTMLReportWriter.findingsPerRule, budget)
                budget -= shown
                return Group(
                    index: index,
                    id: group.rule.id.forHTML,
                    severity: group.rule.severity.rawValue,
                    summary: group.rule.summary,
                    count: Self.number(group.findings.count),
                    countText: ValidationSummary.count(group.findings.count, "finding", number: Self.number),
                    shown: Self.number(shown),
                    capped: shown < group.findings.count,
                    rows: group.findings.prefix(shown).map(FindingRow.init)
                )
            }
            if let overview = report.overview {
                let sized = overview.inputs.contains { $0.bytes != nil }
                let counted = overview.inputs.contains { $0.entities != nil }
                inputs = overview.inputs.map {
                    InputRow(
                        name: $0.name.forHTML,
                        size: $0.bytes.map(Self.size) ?? "",
                        entities: $0.entities.map(Self.number) ?? "",
                        sized: sized,
                        counted: counted
                    )
                }
                self.sized = sized
                self.counted = counted
                self.overview = [OverviewView(overview)]
            } else {
                inputs = report.inputs.map {
                    InputRow(name: $0.forHTML, size: "", entities: "", sized: false, counted: false)
                }
                sized = false
                counted = false
                self.overview = []
            }
        }

        /// `1,234,567`.
        static func number(_ value: Int) -> String {
            let digits = String(value.magnitude)
            var out = value < 0 ? "-" : ""
            for (index, digit) in digits.enumerated() {
                if index > 0, (digits.count - index) % 3 == 0 { out += "," }
                out.append(digit)
            }
            return out
        }

        /// `812 bytes`, `2.4 KB`, `1.3 MB`, `1.2 GB` (powers of 1,000, as `ls --si`).
        static func size(_ bytes: Int64) -> String {
            if bytes < 1000 { return "\(bytes) bytes" }
            var value = Double(bytes) / 1000
            for unit in ["KB", "MB", "GB"] {
                if value < 1000 || unit == "GB" { return "\(Self.oneDecimal(value)) \(unit)" }
                value /= 1000
            }
            return "\(bytes) bytes"
        }

        /// `0.42 s`, `12.3 s`.
        static func seconds(_ duration: Duration) -> String {
            let (whole, attoseconds) = duration.components
            let value = Double(whole) + Double(attoseconds) / 1e18
            let hundredths = Int((value * 100).rounded())
            return value < 10
                ? "\(hundredths / 100).\(String(hundredths % 100).leftPadded(2)) s" : "\(oneDecimal(value)) s"
        }

        static func oneDecimal(_ value: Double) -> String {
            let tenths = Int((value * 10).rounded())
            return "\(tenths / 10).\(tenths % 10)"
        }
    }

    struct RuleRow {
        var index: Int
        var id: String
        var severity: String
        var count: String
        var summary: String
        var clean: Bool
    }

    struct InputRow {
        var name: String
        var size: String
        var entities: String
        /// The table's columns, repeated in each row for the row's template.
        var sized: Bool
        var counted: Bool
    }

    struct Group {
        var index: Int
        var id: String
        var severity: String
        var summary: String
        var count: String
        var countText: String
        var shown: String
        var capped: Bool
        var rows: [FindingRow]
    }

    struct FindingRow {
        var place: String
        var partitionKey: String
        var rowKey: String
        var message: String
        var related: [String]

        init(_ finding: Finding) {
            place = finding.location.description.forHTML
            partitionKey = (finding.location.partitionKey ?? "").forHTML
            rowKey = (finding.location.rowKey ?? "").forHTML
            message = finding.message.forHTML
            related = finding.related.map { TextReportWriter.describe($0).forHTML }
        }
    }

    struct OverviewView {
        var months: [ChartView]
        var readability: [Count]
        var seeded: Bool
        var hours: [ChartView]
        var weekdays: [ChartView]
        var speakers: [SpeakerRow]
        var speakersShown: String
        var speakersWithEvents: String
        var speakersCapped: Bool
        var idle: [SpeakerRow]
        var idleCount: String
        var idleShown: String
        var idleCapped: Bool
        var hasIdle: Bool
        var eventsWithoutSpeaker: String
        var thumbnailNote: [String]

        init(_ overview: ReportOverview) {
            let number = Page.number
            if overview.months.isEmpty {
                months = []
            } else if overview.months.count <= HTMLReportWriter.monthsDrawn {
                months = [
                    ChartView(
                        id: "months",
                        title: "Events per month (UTC)",
                        unit: "Month",
                        labels: overview.months.map { "\($0.year)-\(String($0.month).leftPadded(2))" },
                        values: overview.months.map(\.events)
                    )
                ]
            } else {
                var years: [(Int, Int)] = []
                for month in overview.months {
                    if years.last?.0 == month.year {
                        years[years.count - 1].1 += month.events
                    } else {
                        years.append((month.year, month.events))
                    }
                }
                months = [
                    ChartView(
                        id: "months",
                        title: "Events per year (UTC; \(number(overview.months.count)) months are too many to draw)",
                        unit: "Year",
                        labels: years.map { String($0.0) },
                        values: years.map(\.1)
                    )
                ]
            }
            let dates = overview.dates
            readability = [
                Count(key: "events", label: "Events", value: number(overview.events)),
                Count(
                    key: "read-by-app",
                    label: "Dates the app reads, as Azure serves them",
                    value: number(dates.readByApp)
                ),
                Count(
                    key: "seven-digits",
                    label: "Served with all seven fractional digits",
                    value: number(dates.sevenDigits)
                ),
                Count(
                    key: "trimmed",
                    label: "Served trimmed, with a fraction left (the app reads them)",
                    value: number(dates.trimmedWithFraction)
                ),
                Count(
                    key: "whole-second",
                    label: "Served trimmed to a whole second, …:00Z (the app refuses them)",
                    value: number(dates.wholeSecond)
                ),
                Count(key: "unzoned", label: "Written without the Z (not read as UTC)", value: number(dates.unzoned)),
                Count(key: "undated", label: "No EventDate, or not an Edm.DateTime", value: number(dates.undated)),
            ]
            seeded = overview.looksSeeded
            hours = [
                ChartView(
                    id: "hours",
                    title: "Events per hour of the day (UTC)",
                    unit: "Hour",
                    labels: (0..<24).map { String($0).leftPadded(2) },
                    values: overview.hours
                )
            ]
            weekdays = [
                ChartView(
                    id: "weekdays",
                    title: "Events per day of the week (UTC)",
                    unit: "Day",
                    labels: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
                    values: overview.weekdays
                )
            ]
            let photos = overview.thumbnails
            speakers = overview.speakers.map { SpeakerRow($0, thumbnail: photos[$0.rowKey]) }
            let withEvents = overview.speakerCount - overview.speakersWithoutEventsCount
            speakersShown = number(speakers.count)
            speakersWithEvents = number(withEvents)
            speakersCapped = speakers.count < withEvents
            idle = overview.speakersWithoutEvents.map { SpeakerRow($0, thumbnail: photos[$0.rowKey]) }
            idleCount = number(overview.speakersWithoutEventsCount)
            idleShown = number(idle.count)
            idleCapped = idle.count < overview.speakersWithoutEventsCount
            hasIdle = !idle.isEmpty
            eventsWithoutSpeaker = number(overview.eventsWithoutSpeaker)
            thumbnailNote = overview.thumbnailNote.map { [$0] } ?? []
        }
    }

    struct Count {
        var key: String
        var label: String
        var value: String
    }

    struct SpeakerRow {
        var name: String
        var rowKey: String
        var events: String
        /// A `data:` URI, or nothing.
        var photo: [String]

        init(_ speaker: ReportOverview.Speaker, thumbnail: ReportOverview.Thumbnail?) {
            name = (speaker.name ?? "").forHTML
            rowKey = speaker.rowKey.forHTML
            events = Page.number(speaker.events)
            photo = thumbnail.map { ["data:\($0.mediaType);base64,\(Base64.encode($0.data))"] } ?? []
        }
    }

    struct ChartView {
        var id: String
        var title: String
        var unit: String
        var chartWidth = BarChart.width
        var chartHeight = BarChart.height
        var plotHeight = BarChart.plotHeight
        var labelY = BarChart.plotHeight + 16
        var maximum: String
        var bars: [BarChart.Bar]

        init(id: String, title: String, unit: String, labels: [String], values: [Int]) {
            self.id = id
            self.title = title
            self.unit = unit
            let chart = BarChart(labels: labels, values: values)
            maximum = Page.number(chart.maximum)
            bars = chart.bars
        }
    }
}

extension String {
    /// The text as an HTML page can hold it: control characters as escapes (as the text report
    /// writes them), and Unicode's noncharacters, which HTML forbids in a document, as escapes too.
    /// Markup needs nothing here: the templates escape it.
    var forHTML: String {
        let text = escapingControlCharacters
        guard text.unicodeScalars.contains(where: \.isNoncharacter) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isNoncharacter {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

extension Unicode.Scalar {
    /// U+FDD0…U+FDEF and the last two code points of every plane.
    fileprivate var isNoncharacter: Bool {
        (0xFDD0...0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }
}
