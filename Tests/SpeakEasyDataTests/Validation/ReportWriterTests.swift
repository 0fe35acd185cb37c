import Foundation
import SpeakEasyData
import Testing

/// The text and JSON report writers.
@Suite("report writers")
struct ReportWriterTests {
    static let report = ValidationReport(
        rules: [Rule.datesFormat.descriptor, Rule.duplicatesKeys.descriptor, Rule.contractRowKeyGUID.descriptor],
        findings: [
            Finding(
                rule: "duplicates.keys",
                severity: .error,
                message: "RowKey 'k' appears twice",
                location: FindingLocation(.file(path: "e.csv", line: 9), partitionKey: "Events", rowKey: "k"),
                related: [FindingLocation(.file(path: "e.csv", line: 2), partitionKey: "Events", rowKey: "k")]
            ),
            Finding(
                rule: "dates.format",
                severity: .error,
                message: "EventDate \"x\" is\tbad",
                location: FindingLocation(.table("events"), partitionKey: "Events", rowKey: "r")
            ),
            Finding(
                rule: "contract.rowkey-guid",
                severity: .warning,
                message: "not a GUID",
                location: FindingLocation(.container("speakers", blob: "a b.jpg"))
            ),
        ],
        inputs: ["e.csv"],
        entitiesChecked: 12,
        truncated: false
    )

    @Test("text: grouped by rule in catalog order, both sides located, a summary line")
    func text() {
        let text = String(decoding: TextReportWriter().render(Self.report), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0].hasPrefix("error dates.format (1 finding)"))
        #expect(lines[1] == "  events/Events/r: EventDate \"x\" is\tbad")
        #expect(lines[3].hasPrefix("error duplicates.keys (1 finding)"))
        #expect(lines[4] == "  e.csv:9 (Events/k): RowKey 'k' appears twice")
        #expect(lines[5] == "      see e.csv:2 (Events/k)")
        #expect(lines[7].hasPrefix("warning contract.rowkey-guid (1 finding)"))
        #expect(lines[8] == "  speakers/a b.jpg: not a GUID")
        #expect(lines[10] == "validate: 2 errors, 1 warning in 12 entities (e.csv)")
        #expect(!text.contains("\u{1B}"))
    }

    @Test("text: colour only when asked")
    func colour() {
        let text = String(decoding: TextReportWriter(colour: true).render(Self.report), as: UTF8.self)
        #expect(text.contains("\u{1B}[31;1merror\u{1B}[0m"))
        #expect(text.contains("\u{1B}[33;1mwarning\u{1B}[0m"))
    }

    @Test("text: a clean report is its summary line")
    func cleanText() {
        let clean = ValidationReport(
            rules: [Rule.datesFormat.descriptor],
            findings: [],
            inputs: ["a.json", "b.csv"],
            entitiesChecked: 1,
            truncated: false
        )
        #expect(
            String(decoding: TextReportWriter().render(clean), as: UTF8.self)
                == "validate: no problems in 1 entity (a.json, b.csv)\n"
        )
    }

    @Test("a run cut short by --max-errors says 'at least' in the summary line and the JSON summary")
    func truncatedCounts() throws {
        let finding = Finding(
            rule: "references.orphan",
            severity: .error,
            message: "m",
            location: FindingLocation(.file(path: "e.csv", line: 2))
        )
        let report = ValidationReport(
            rules: [Rule.referencesOrphan.descriptor],
            findings: Array(repeating: finding, count: 50),
            inputs: ["e.csv"],
            entitiesChecked: 2_000,
            truncated: true,
            maxErrors: 50
        )
        #expect(
            ValidationSummary.line(report)
                == "at least 50 errors in 2000 entities (e.csv); validate stopped at --max-errors 50: there are more findings than reported, and the counts are lower bounds"
        )
        let json =
            try JSONSerialization.jsonObject(with: Data(JSONReportWriter(toolVersion: "t").render(report)))
            as? [String: Any]
        #expect(json?["truncated"] as? Bool == true)
        #expect(json?["maxErrors"] as? Int == 50)
        let summary = json?["summary"] as? [String: Any]
        #expect(summary?["errors"] as? Int == 50)
        #expect(summary?["exact"] as? Bool == false)
        #expect((summary?["note"] as? String)?.contains("lower bounds") == true)
    }

    @Test("json: schema version 1, every member, escaped strings")
    func json() throws {
        let bytes = JSONReportWriter(toolVersion: "9.9.9").render(Self.report)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        #expect((object["tool"] as? [String: String]) == ["name": "validate", "version": "9.9.9"])
        #expect(object["inputs"] as? [String] == ["e.csv"])
        #expect(object["entitiesChecked"] as? Int == 12)
        #expect(object["truncated"] as? Bool == false)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 2 && summary["warnings"] as? Int == 1)
        #expect(summary["exact"] as? Bool == true && summary["note"] == nil)
        #expect(object["maxErrors"] is NSNull)
        let rules = try #require(object["rules"] as? [[String: String]])
        #expect(rules.map { $0["id"] } == ["dates.format", "duplicates.keys", "contract.rowkey-guid"])
        #expect(rules[2]["severity"] == "warning")
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 3)
        #expect(findings[0]["rule"] as? String == "duplicates.keys")
        let location = try #require(findings[0]["location"] as? [String: Any])
        #expect(location["file"] as? String == "e.csv")
        #expect(location["line"] as? Int == 9)
        #expect(location["partitionKey"] as? String == "Events")
        #expect(location["rowKey"] as? String == "k")
        #expect(location["text"] as? String == "e.csv:9")
        let related = try #require(findings[0]["related"] as? [[String: Any]])
        #expect(related.first?["line"] as? Int == 2)
        #expect(findings[1]["message"] as? String == "EventDate \"x\" is\tbad")
        #expect((findings[1]["location"] as? [String: Any])?["table"] as? String == "events")
        let blob = try #require(findings[2]["location"] as? [String: Any])
        #expect(blob["container"] as? String == "speakers")
        #expect(blob["blob"] as? String == "a b.jpg")
    }

    @Test("json: an empty report is valid JSON")
    func emptyJSON() throws {
        let empty = ValidationReport(rules: [], findings: [], inputs: [], entitiesChecked: 0, truncated: false)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(JSONReportWriter(toolVersion: "1").render(empty)))
                as? [String: Any]
        )
        #expect((object["findings"] as? [Any])?.isEmpty == true)
        #expect((object["rules"] as? [Any])?.isEmpty == true)
    }
}
