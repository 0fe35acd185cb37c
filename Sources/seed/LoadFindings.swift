import CLISupport
import SpeakEasyData

/// What `seed --from-file` says when the data it loads breaks validate's rules: the first findings,
/// then a summary that points to `validate` for all of them. A warning by default (the load goes on);
/// with `--strict`, the refusal.
struct LoadFindings {
    var report: ValidationReport
    /// The `validate` command that reports the same findings in full.
    var validateCommand: String

    /// Findings listed one a line; the summary counts the rest.
    static let listed = 20

    /// Prints the findings as warnings; with `strict`, throws the refusal when any is an error.
    func tell(strict: Bool, quiet: Bool) throws(LoadRefused) {
        guard !report.findings.isEmpty else { return }
        let refused = strict && report.errorCount > 0
        guard refused || !quiet else { return }
        var out = ""
        for finding in findings.prefix(Self.listed) {
            let word = refused && finding.severity == .error ? "error" : "warning"
            out +=
                "seed: \(word): \(TextReportWriter.describe(finding.location)): \(finding.message) [\(finding.rule)]\n"
        }
        if report.findings.count > Self.listed { out += "seed: … and \(report.findings.count - Self.listed) more\n" }
        let what = "\(report.inputs.joined(separator: ", ")): \(counts) by validate's rules (\(perRule))"
        if refused {
            Terminal.writeError(out)
            throw LoadRefused(
                description: "\(what); --strict loads none of it (`\(validateCommand)` lists every finding)"
            )
        }
        out +=
            "seed: warning: \(what): the app may not read this data; loading it anyway (`\(validateCommand)` lists every finding; --strict refuses such a load)\n"
        Terminal.writeError(out)
    }

    /// The findings in file order: a reference is judged when the input ends, after later lines.
    private var findings: [Finding] {
        func place(_ finding: Finding) -> (file: Int, line: Int) {
            guard case .file(let path, let line) = finding.location.place else { return (Int.max, 0) }
            return (report.inputs.firstIndex(of: path) ?? Int.max, line)
        }
        return report.findings.enumerated().sorted { a, b in
            let (x, y) = (place(a.element), place(b.element))
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    /// `2 errors, 1 warning in 108 entities`.
    private var counts: String {
        var parts: [String] = []
        if report.errorCount > 0 { parts.append(ValidationSummary.count(report.errorCount, "error")) }
        if report.warningCount > 0 { parts.append(ValidationSummary.count(report.warningCount, "warning")) }
        return parts.joined(separator: ", ") + " in "
            + ValidationSummary.count(report.entitiesChecked, "entity", plural: "entities")
    }

    /// `dates.format 2, references.orphan 1`, in the order the rules were first broken.
    private var perRule: String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for finding in findings {
            if counts[finding.rule] == nil { order.append(finding.rule) }
            counts[finding.rule, default: 0] += 1
        }
        return order.map { "\($0) \(counts[$0]!)" }.joined(separator: ", ")
    }
}

/// `seed --from-file --strict` on data that breaks validate's rules: malformed input (65).
struct LoadRefused: ClassifiedError {
    var description: String
    var kind: FailureKind { .malformedInput }
}
