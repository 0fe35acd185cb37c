import SpeakEasyData
import TestSupport
import Testing

@Suite("GitHubReportWriter")
struct GitHubReportWriterTests {
    static func render(_ report: ValidationReport) -> String {
        String(decoding: GitHubReportWriter().render(report), as: UTF8.self)
    }

    @Test("one workflow command per finding, grouped by rule, escaped as @actions/core escapes")
    func everyLocationKindAndTrickyText() {
        let expected =
            "::error file=data/events.csv,line=12,title=dates.format::EventDate \"2024-05-01T10:00:00.2Z\" has 1 fractional digit, the app needs 7 <&> 100%25\n"
            + "::error file=/abs/path/events.csv,line=20,title=dates.format::EventDate is missing\n"
            + "::error file=odd dir/a%3Ab%2Cc%25d#e?é.csv,line=3,title=refs.mismatch::SpeakerName \"Bart Tubalinal\" ≠ \"Bart Tubalinál\"%0Aline two%0D%0ACR-LF, tab\there, bell\u{7} esc\u{1B} nul\u{0} 😀"
            + " (related: speakers.json:40, events/speakers/6f1c3b4e-8e0a-4a57-9a40-0b6a2a7f8c11)\n"
            + "::warning title=contract.rowkey-guid::events/Events/not-a-guid: RowKey \"not-a-guid\" is not a GUID\n"
            + "::warning title=photos.unused::speakers/Old Photo, 2019.jpg: blob is used by no speaker\n"
            + "::warning title=photos.unused::speakers: container \"speakers\" is not readable anonymously\n"
        #expect(Self.render(SampleReports.tricky) == expected)
    }

    @Test("a report without findings prints nothing")
    func nothingFound() {
        #expect(GitHubReportWriter().render(SampleReports.empty).isEmpty)
        #expect(GitHubReportWriter().render(SampleReports.clean).isEmpty)
    }

    @Test("a run cut short says so; a finding for an undescribed rule is still reported")
    func truncated() {
        let expected =
            "::error file=events.csv,line=2,title=dates.format::EventDate is missing\n"
            + "::error title=keys.duplicate::events/Events/a: same keys twice (related: events/Events/a)\n"
            + "::warning title=validate::validate stopped at --max-errors: there are more findings than reported, and the counts are lower bounds\n"
        #expect(Self.render(SampleReports.truncatedWithUndescribedRule) == expected)
    }

    @Test("a line that is not known (0) is left out rather than sent as line=0")
    func unknownLine() {
        let report = ValidationReport(
            rules: [],
            findings: [
                Finding(
                    rule: "r",
                    severity: .warning,
                    message: "m",
                    location: FindingLocation(.file(path: "f.csv", line: 0))
                )
            ],
            inputs: [],
            entitiesChecked: 0,
            truncated: false
        )
        #expect(Self.render(report) == "::warning file=f.csv,title=r::m\n")
    }

    @Test(
        "data and property escaping match @actions/core's escapeData and escapeProperty",
        arguments: [
            ("100%", "100%25", "100%25"),
            ("a\r\nb", "a%0D%0Ab", "a%0D%0Ab"),
            ("C:\\x,y", "C:\\x,y", "C%3A\\x%2Cy"),
            ("%0A", "%250A", "%250A"),
            ("::", "::", "%3A%3A"),
        ]
    )
    func escaping(raw: String, data: String, property: String) {
        let report = ValidationReport(
            rules: [],
            findings: [
                Finding(rule: raw, severity: .error, message: raw, location: FindingLocation(.file(path: raw, line: 1)))
            ],
            inputs: [],
            entitiesChecked: 0,
            truncated: false
        )
        #expect(Self.render(report) == "::error file=\(property),line=1,title=\(property)::\(data)\n")
    }
}
