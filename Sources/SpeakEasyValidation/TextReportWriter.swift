/// The report for people: findings grouped by rule (in catalog order), each with its location and
/// the related places, then the summary line. ANSI colour when asked (a terminal without `NO_COLOR`).
public struct TextReportWriter: ReportWriter, Sendable {
    /// Whether to colour it with ANSI escapes, for a terminal.
    public var colour: Bool

    /// A writer, without colour unless asked.
    public init(colour: Bool = false) { self.colour = colour }

    /// The findings grouped by rule, then the summary line.
    public func render(_ report: ValidationReport) -> [UInt8] {
        var out = ""
        var groups: [String: [Finding]] = [:]
        for finding in report.findings { groups[finding.rule, default: []].append(finding) }
        // Catalog order, then any rule the catalog does not list, by id.
        let order =
            report.rules.map(\.id) + groups.keys.filter { id in !report.rules.contains { $0.id == id } }.sorted()
        for id in order {
            guard let findings = groups[id], let first = findings.first else { continue }
            let severity = first.severity
            let summary = report.rules.first { $0.id == id }?.summary
            out += paint(severity == .error ? "31;1" : "33;1", severity.rawValue) + " " + paint("1", id)
            out += " (\(ValidationSummary.count(findings.count, "finding")))"
            if let summary { out += paint("2", " — " + summary) }
            out += "\n"
            for finding in findings {
                out +=
                    "  " + paint("36", Self.describe(finding.location)) + ": "
                    + finding.message.escapingControlCharacters + "\n"
                for related in finding.related { out += paint("2", "      see " + Self.describe(related)) + "\n" }
            }
            out += "\n"
        }
        let failing = report.errorCount > 0
        out +=
            paint(failing ? "31;1" : report.warningCount > 0 ? "33;1" : "32;1", "validate:") + " "
            + ValidationSummary.line(report) + "\n"
        return Array(out.utf8)
    }

    /// `events.csv:12 (Events/<RowKey>)` for files, the location's own description otherwise.
    package static func describe(_ location: FindingLocation) -> String {
        guard case .file = location.place, location.partitionKey != nil || location.rowKey != nil else {
            return location.description
        }
        let keys = [location.partitionKey, location.rowKey].compactMap { $0 }.joined(separator: "/")
        return "\(location.description) (\(keys))"
    }

    private func paint(_ code: String, _ text: String) -> String {
        colour ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
