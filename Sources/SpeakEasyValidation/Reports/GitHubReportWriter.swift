/// Findings as GitHub Actions workflow commands, which GitHub turns into annotations on the pull
/// request's changed files and the run's summary.
///
/// One line per finding, grouped by rule:
///
///     ::error file=events.csv,line=12,title=dates.format::EventDate 2024-05-01T10:00:00.2Z …
///     ::warning title=contract.rowkey-guid::events/Events/abc: RowKey is not a GUID
///
/// Only file locations can point at a line of a file; a finding in a storage account names its
/// table, partition and row (or container and blob) at the start of the message instead. Related
/// locations follow the message, since an annotation has one place only.
public struct GitHubReportWriter: ReportWriter, Sendable {
    /// A writer.
    public init() {}

    /// One workflow command a finding.
    public func render(_ report: ValidationReport) -> [UInt8] {
        var out: [UInt8] = []
        for group in report.ruleGroups {
            for finding in group.findings {
                append(finding, to: &out)
            }
        }
        if report.truncated {
            // Otherwise a run cut short by --max-errors looks like a complete one in the summary.
            appendCommand(
                "warning",
                properties: [("title", "validate")],
                message: report.truncationNote,
                to: &out
            )
        }
        if let notRun = report.notRunNote {
            appendCommand("notice", properties: [("title", "validate")], message: notRun, to: &out)
        }
        return out
    }

    private func append(_ finding: Finding, to out: inout [UInt8]) {
        var properties: [(String, String)] = []
        var message = finding.message
        switch finding.location.place {
        case .file(let path, let line):
            properties.append(("file", path))
            if line > 0 { properties.append(("line", String(line))) }
        case .table, .container:
            message = "\(finding.location): \(message)"
        }
        properties.append(("title", finding.rule))
        if !finding.related.isEmpty {
            message += " (related: \(finding.related.map(\.description).joined(separator: ", ")))"
        }
        appendCommand(
            finding.severity == .error ? "error" : "warning",
            properties: properties,
            message: message,
            to: &out
        )
    }

    private func appendCommand(
        _ command: String,
        properties: [(String, String)],
        message: String,
        to out: inout [UInt8]
    ) {
        out.append(contentsOf: "::\(command)".utf8)
        for (index, (key, value)) in properties.enumerated() {
            out.append(UInt8(ascii: index == 0 ? " " : ","))
            out.append(contentsOf: "\(key)=".utf8)
            out.append(contentsOf: Self.escapeProperty(value).utf8)
        }
        out.append(contentsOf: "::".utf8)
        out.append(contentsOf: Self.escapeData(message).utf8)
        out.append(UInt8(ascii: "\n"))
    }

    /// A command's message, escaped as `@actions/core` does (`escapeData`): `%` first, then CR and
    /// LF, so a multi-line message stays one command.
    static func escapeData(_ text: String) -> String { escape(text, property: false) }

    /// A property value, escaped as `@actions/core` does (`escapeProperty`): as data, plus `:` and
    /// `,`, which would otherwise end the value.
    static func escapeProperty(_ text: String) -> String { escape(text, property: true) }

    private static func escape(_ text: String, property: Bool) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            case ":" where property: escaped += "%3A"
            case "," where property: escaped += "%2C"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
