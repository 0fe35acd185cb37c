/// The one-line summary every report format shares (and `validate` prints on stderr).
package enum ValidationSummary {
    /// `3 errors, 1 warning in 108 entities (events.csv, speakers.csv)`; `no problems in …` when clean;
    /// `at least 50 errors in …` with the reason when `--max-errors` cut the run short. `number`
    /// writes the counts: digits alone in the text reports, whose bytes are kept; the HTML report
    /// writes them as its tables do (`1,001,000`).
    package static func line(_ report: ValidationReport, number: (Int) -> String = { String($0) }) -> String {
        let errors = report.errorCount
        let warnings = report.warningCount
        var parts: [String] = []
        if errors > 0 { parts.append(count(errors, "error", number: number)) }
        if warnings > 0 { parts.append(count(warnings, "warning", number: number)) }
        var what = parts.isEmpty ? "no problems" : parts.joined(separator: ", ")
        if report.truncated { what = "at least " + what }
        let entities = count(report.entitiesChecked, "entity", plural: "entities", number: number)
        var text = "\(what) in \(entities) (\(report.inputs.joined(separator: ", ")))"
        if report.truncated { text += "; " + report.truncationNote }
        if let notRun = report.notRunNote { text += "; " + notRun }
        return text
    }

    package static func count(
        _ n: Int,
        _ singular: String,
        plural: String? = nil,
        number: (Int) -> String = { String($0) }
    ) -> String {
        "\(number(n)) \(n == 1 ? singular : plural ?? singular + "s")"
    }
}
