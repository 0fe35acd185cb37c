/// What `validate` reports: one broken rule at one place, with the other places it involves.
///
/// Findings are the only thing the checks and the report writers share, so a new report format is
/// one new writer over ``ValidationReport`` and a new check is one new producer of findings.
public struct Finding: Sendable, Hashable {
    /// The rule's stable id, one of ``Rule``'s (e.g. `dates.format`).
    public var rule: String
    /// Whether the finding fails a run.
    public var severity: Severity
    /// One line, for people: says what is wrong and, where it helps, the fix.
    public var message: String
    /// Where the problem is.
    public var location: FindingLocation
    /// The other sides: the speaker an event references, the first occurrence of a duplicate.
    public var related: [FindingLocation]

    /// The rule as a ``Rule``, to compare or switch over without its id's spelling: `finding.catalogRule
    /// == .datesFormat`. Nil only for an id that is no rule's (``rule`` is settable).
    public var catalogRule: Rule? { Rule(rawValue: rule) }

    package init(
        rule: String,
        severity: Severity,
        message: String,
        location: FindingLocation,
        related: [FindingLocation] = []
    ) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.location = location
        self.related = related
    }
}

/// How much a finding matters. Errors fail a run (exit 1); warnings do not, unless
/// `--warnings-as-errors`.
public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Reported; fails a run only with `warningsAsErrors`.
    case warning
    /// Fails the run.
    case error

    /// Warnings come before errors.
    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
}

/// A place in the data: a line of a file, an entity in a store's table, or a blob in a container.
/// File findings carry the entity's keys too when they are known, so either view can be shown.
public struct FindingLocation: Sendable, Hashable, CustomStringConvertible {
    /// What kind of place: a file's line, a table, or a container.
    public enum Place: Sendable, Hashable {
        /// A file as named on the command line, and the 1-based line where the entity starts.
        case file(path: String, line: Int)
        /// An entity in a store's table.
        case table(String)
        /// A blob container, and the blob's name when the finding is about one blob.
        case container(String, blob: String?)
    }

    /// Where: a file line, a table, or a container.
    public var place: Place
    /// The entity's PartitionKey, when known.
    public var partitionKey: String?
    /// The entity's RowKey, when known.
    public var rowKey: String?

    package init(_ place: Place, partitionKey: String? = nil, rowKey: String? = nil) {
        self.place = place
        self.partitionKey = partitionKey
        self.rowKey = rowKey
    }

    /// `events.csv:12`, `events/Events/<RowKey>`, `speakers/BTubalinal.jpg`.
    public var description: String {
        switch place {
        case .file(let path, let line): return "\(path):\(line)"
        case .table(let table): return [table, partitionKey, rowKey].compactMap { $0 }.joined(separator: "/")
        case .container(let container, let blob): return blob.map { "\(container)/\($0)" } ?? container
        }
    }
}

/// A rule as reports describe it (SARIF's `tool.driver.rules`, the ValidatingData article's table).
public struct RuleDescriptor: Sendable, Hashable {
    /// The rule's stable id (`dates.format`).
    public var id: String
    /// Whether the rule's findings are errors or warnings.
    public var severity: Severity
    /// One sentence: what the rule checks.
    public var summary: String

    package init(id: String, severity: Severity, summary: String) {
        self.id = id
        self.severity = severity
        self.summary = summary
    }
}

/// Everything one `validate` run found, ready for any report writer.
public struct ValidationReport: Sendable {
    /// The rules that ran, in the order reports list them.
    public var rules: [RuleDescriptor]
    /// Findings in the order they were found (reports group them by rule).
    public var findings: [Finding]
    /// What was checked: file paths, or the store's description.
    public var inputs: [String]
    /// How many entities were checked.
    public var entitiesChecked: Int
    /// True when `--max-errors` cut the run short: there were more findings than reported (and
    /// perhaps input left unread), so every count is a lower bound.
    public var truncated: Bool
    /// The `--max-errors` limit of the run, if any.
    package var maxErrors: Int?
    /// The checked account's address, for a store run: where a report that needs
    /// a file or URL for every finding (SARIF) points a place in the account.
    package var storeAddress: String?
    /// Rules that were selected but did not run, because they check a storage account and the input
    /// was files. Every report lists them, so that a selection cannot pass without saying so.
    public var notRun: [RuleDescriptor] = []
    /// What the data looks like, when the run was asked for it (``ValidationOptions/collectsOverview``).
    /// Set after the report is made, so the initializer's signature (in the API baseline) stays.
    package var overview: ReportOverview?

    package init(
        rules: [RuleDescriptor],
        findings: [Finding],
        inputs: [String],
        entitiesChecked: Int,
        truncated: Bool,
        maxErrors: Int? = nil,
        storeAddress: String? = nil
    ) {
        self.rules = rules
        self.findings = findings
        self.inputs = inputs
        self.entitiesChecked = entitiesChecked
        self.truncated = truncated
        self.maxErrors = maxErrors
        self.storeAddress = storeAddress
    }

    /// Why the counts are lower bounds, for every report form to say the same.
    package var truncationNote: String {
        "validate stopped at --max-errors\(maxErrors.map { " \($0)" } ?? ""): there are more findings than reported, and the counts are lower bounds"
    }

    /// Which selected rules did not run and why, for every report form to say the same; nil when
    /// every selected rule ran.
    package var notRunNote: String? {
        guard !notRun.isEmpty else { return nil }
        let ids = notRun.map(\.id).joined(separator: ", ")
        return notRun.count == 1
            ? "not run: \(ids), which checks a storage account, not files"
            : "not run: \(ids), which check a storage account, not files"
    }

    /// How many findings are errors.
    public var errorCount: Int { findings.count { $0.severity == .error } }
    /// How many findings are warnings.
    public var warningCount: Int { findings.count { $0.severity == .warning } }
}

/// Turns a finished report into bytes: text, JSON, JUnit, GitHub, SARIF or HTML, as `validate
/// --report` writes them. Pure, like the entity formatters: the caller writes the bytes where it
/// wants them.
///
/// ```swift
/// let report = try await store.validate()
/// let sarif = SARIFReportWriter(toolVersion: "1.0.0").render(report)
/// ```
public protocol ReportWriter {
    /// The report's bytes, UTF-8.
    func render(_ report: ValidationReport) -> [UInt8]
}
