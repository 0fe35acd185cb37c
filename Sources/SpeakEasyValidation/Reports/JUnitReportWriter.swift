import SpeakEasyFormats

/// Findings as JUnit XML, the test-report format that CI dashboards (Jenkins, GitLab, Azure
/// Pipelines, the GitHub test-report actions) already know how to show and trend.
///
/// Each rule is a `<testsuite>` and each finding a failing `<testcase>` named by its location, so
/// a dashboard shows "dates.format: 3 of 3 failed" and lists the places. A rule without findings
/// is one passing test case, so a clean run still shows which rules ran. The failure's `message`
/// is the finding's one line, its `type` the severity (`error` or `warning`), and its text the
/// location and related locations. Valid against Jenkins' `junit-10.xsd` (kept in
/// `Tests/Fixtures/schemas`), which is also what the other dashboards accept. A run cut short by
/// `--max-errors` adds a suite `max-errors` with one failing case that says the counts are lower
/// bounds, since JUnit has no way to mark a report incomplete. A selected rule that did not run (it
/// checks a storage account, and the input was files) is a suite with one skipped case.
public struct JUnitReportWriter: ReportWriter, Sendable {
    /// A writer.
    public init() {}

    /// The JUnit XML document.
    public func render(_ report: ValidationReport) -> [UInt8] {
        let groups = report.ruleGroups
        let extra = report.truncated ? 1 : 0
        let tests = groups.reduce(0) { $0 + max($1.findings.count, 1) } + extra + report.notRun.count
        var out: [UInt8] = []
        out.append(contentsOf: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
        out.append(
            contentsOf:
                "<testsuites name=\"speakeasy-validate\" tests=\"\(tests)\" failures=\"\(report.findings.count + extra)\" errors=\"0\">\n"
                .utf8
        )
        for group in groups {
            append(group, to: &out)
        }
        if report.truncated {
            out.append(
                contentsOf: "  <testsuite name=\"max-errors\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\">\n"
                    .utf8
            )
            appendTestCaseStart(rule: "max-errors", name: "the report is complete", to: &out)
            out.append(contentsOf: ">\n      <failure message=\"".utf8)
            XMLEscaping.appendAttribute(report.truncationNote, to: &out)
            out.append(contentsOf: "\" type=\"truncated\">".utf8)
            XMLEscaping.appendText(
                "at least \(report.errorCount) errors and \(report.warningCount) warnings in \(report.entitiesChecked) entities",
                to: &out
            )
            out.append(contentsOf: "</failure>\n    </testcase>\n  </testsuite>\n".utf8)
        }
        for rule in report.notRun { appendNotRun(rule, to: &out) }
        out.append(contentsOf: "</testsuites>\n".utf8)
        return out
    }

    private func append(_ group: ValidationReport.RuleGroup, to out: inout [UInt8]) {
        let rule = group.rule
        out.append(contentsOf: "  <testsuite name=\"".utf8)
        XMLEscaping.appendAttribute(rule.id, to: &out)
        out.append(
            contentsOf:
                "\" tests=\"\(max(group.findings.count, 1))\" failures=\"\(group.findings.count)\" errors=\"0\" skipped=\"0\">\n"
                .utf8
        )
        out.append(contentsOf: "    <properties>\n".utf8)
        appendProperty("severity", rule.severity.rawValue, to: &out)
        if !rule.summary.isEmpty { appendProperty("summary", rule.summary, to: &out) }
        out.append(contentsOf: "    </properties>\n".utf8)
        if group.findings.isEmpty {
            // The passing case: named by what the rule checks, since there is no place to name.
            appendTestCaseStart(rule: rule.id, name: rule.summary.isEmpty ? rule.id : rule.summary, to: &out)
            out.append(contentsOf: "/>\n".utf8)
        }
        for finding in group.findings {
            appendTestCaseStart(rule: rule.id, name: finding.location.description, to: &out)
            out.append(contentsOf: ">\n      <failure message=\"".utf8)
            XMLEscaping.appendAttribute(finding.message, to: &out)
            out.append(contentsOf: "\" type=\"\(finding.severity.rawValue)\">".utf8)
            XMLEscaping.appendText(Self.details(of: finding), to: &out)
            out.append(contentsOf: "</failure>\n    </testcase>\n".utf8)
        }
        out.append(contentsOf: "  </testsuite>\n".utf8)
    }

    private func appendNotRun(_ rule: RuleDescriptor, to out: inout [UInt8]) {
        out.append(contentsOf: "  <testsuite name=\"".utf8)
        XMLEscaping.appendAttribute(rule.id, to: &out)
        out.append(contentsOf: "\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">\n".utf8)
        appendTestCaseStart(rule: rule.id, name: rule.summary.isEmpty ? rule.id : rule.summary, to: &out)
        out.append(contentsOf: ">\n      <skipped message=\"not run: it checks a storage account, not files\"/>\n".utf8)
        out.append(contentsOf: "    </testcase>\n  </testsuite>\n".utf8)
    }

    private func appendTestCaseStart(rule: String, name: String, to out: inout [UInt8]) {
        out.append(contentsOf: "    <testcase classname=\"".utf8)
        XMLEscaping.appendAttribute(rule, to: &out)
        out.append(contentsOf: "\" name=\"".utf8)
        XMLEscaping.appendAttribute(name, to: &out)
        out.append(UInt8(ascii: "\""))
    }

    private func appendProperty(_ name: String, _ value: String, to out: inout [UInt8]) {
        out.append(contentsOf: "      <property name=\"\(name)\" value=\"".utf8)
        XMLEscaping.appendAttribute(value, to: &out)
        out.append(contentsOf: "\"/>\n".utf8)
    }

    /// The failure's text: where, the entity's keys when a file line does not show them, and the
    /// other places involved, one per line.
    static func details(of finding: Finding) -> String {
        var lines = ["location: \(finding.location)"]
        if case .file = finding.location.place, finding.location.partitionKey != nil || finding.location.rowKey != nil {
            lines.append(
                "keys: PartitionKey=\(finding.location.partitionKey ?? "") RowKey=\(finding.location.rowKey ?? "")"
            )
        }
        for related in finding.related {
            lines.append("related: \(related)")
        }
        return lines.joined(separator: "\n")
    }
}
