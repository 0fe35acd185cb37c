/// The one-line summary every report format shares (and `validate` prints on stderr).
package enum ValidationSummary {
    /// `3 errors, 1 warning in 108 entities (events.csv, speakers.csv)`; `no problems in …` when clean;
    /// `at least 50 errors in …` with the reason when `--max-errors` cut the run short.
    package static func line(_ report: ValidationReport) -> String {
        let errors = report.errorCount
        let warnings = report.warningCount
        var parts: [String] = []
        if errors > 0 { parts.append(count(errors, "error")) }
        if warnings > 0 { parts.append(count(warnings, "warning")) }
        var what = parts.isEmpty ? "no problems" : parts.joined(separator: ", ")
        if report.truncated { what = "at least " + what }
        var text =
            "\(what) in \(count(report.entitiesChecked, "entity", plural: "entities")) (\(report.inputs.joined(separator: ", ")))"
        if report.truncated { text += "; " + report.truncationNote }
        if let notRun = report.notRunNote { text += "; " + notRun }
        return text
    }

    package static func count(_ n: Int, _ singular: String, plural: String? = nil) -> String {
        "\(n) \(n == 1 ? singular : plural ?? singular + "s")"
    }
}
