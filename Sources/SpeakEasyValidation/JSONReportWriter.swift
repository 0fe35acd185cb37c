import SpeakEasyFormats

/// The machine-readable report, schema version 1 (documented in the ValidatingData article): one JSON object with
/// `version`, `tool`, `inputs`, `entitiesChecked`, `truncated`, `summary`, `rules` and `findings`, and
/// `notRun` (the ids of selected rules that did not apply) when there are any.
/// Members are only ever added within a version; a change that could break a reader bumps it.
public struct JSONReportWriter: ReportWriter, Sendable {
    /// The schema's version, the report's `version`.
    public static let schemaVersion = 1
    /// The version the report's `tool` names.
    public var toolVersion: String

    /// A writer that names `toolVersion` as the tool's version.
    public init(toolVersion: String) { self.toolVersion = toolVersion }

    /// The report as one JSON object.
    public func render(_ report: ValidationReport) -> [UInt8] {
        var out: [UInt8] = []
        func raw(_ text: String) { out.append(contentsOf: text.utf8) }
        func string(_ text: String) { JSONEntityWriter.appendString(text, to: &out) }
        func location(_ location: FindingLocation) {
            raw("{")
            switch location.place {
            case .file(let path, let line):
                raw("\"file\":")
                string(path)
                raw(",\"line\":\(line)")
            case .table(let table):
                raw("\"table\":")
                string(table)
            case .container(let container, let blob):
                raw("\"container\":")
                string(container)
                if let blob {
                    raw(",\"blob\":")
                    string(blob)
                }
            }
            if let partitionKey = location.partitionKey {
                raw(",\"partitionKey\":")
                string(partitionKey)
            }
            if let rowKey = location.rowKey {
                raw(",\"rowKey\":")
                string(rowKey)
            }
            raw(",\"text\":")
            string(location.description)
            raw("}")
        }

        raw("{\n  \"version\": \(Self.schemaVersion),\n  \"tool\": {\"name\": \"validate\", \"version\": ")
        string(toolVersion)
        raw("},\n  \"inputs\": [")
        for (index, input) in report.inputs.enumerated() {
            if index > 0 { raw(", ") }
            string(input)
        }
        raw("],\n  \"entitiesChecked\": \(report.entitiesChecked),\n  \"truncated\": \(report.truncated),\n")
        raw("  \"maxErrors\": \(report.maxErrors.map(String.init) ?? "null"),\n")
        // `exact` false: the counts are lower bounds ("at least"), because --max-errors cut the run short.
        raw(
            "  \"summary\": {\"errors\": \(report.errorCount), \"warnings\": \(report.warningCount), \"exact\": \(!report.truncated)"
        )
        if report.truncated {
            raw(", \"note\": ")
            string(report.truncationNote)
        }
        raw("},\n  \"rules\": [")
        for (index, rule) in report.rules.enumerated() {
            raw(index > 0 ? ",\n    " : "\n    ")
            raw("{\"id\": ")
            string(rule.id)
            raw(", \"severity\": ")
            string(rule.severity.rawValue)
            raw(", \"summary\": ")
            string(rule.summary)
            raw("}")
        }
        raw(report.rules.isEmpty ? "]" : "\n  ]")
        if !report.notRun.isEmpty {
            raw(",\n  \"notRun\": [")
            for (index, rule) in report.notRun.enumerated() {
                if index > 0 { raw(", ") }
                string(rule.id)
            }
            raw("]")
        }
        raw(",\n  \"findings\": [")
        for (index, finding) in report.findings.enumerated() {
            raw(index > 0 ? ",\n    " : "\n    ")
            raw("{\"rule\": ")
            string(finding.rule)
            raw(", \"severity\": ")
            string(finding.severity.rawValue)
            raw(", \"message\": ")
            string(finding.message.escapingControlCharacters)
            raw(", \"location\": ")
            location(finding.location)
            raw(", \"related\": [")
            for (relatedIndex, related) in finding.related.enumerated() {
                if relatedIndex > 0 { raw(", ") }
                location(related)
            }
            raw("]}")
        }
        raw(report.findings.isEmpty ? "]\n}\n" : "\n  ]\n}\n")
        return out
    }
}
