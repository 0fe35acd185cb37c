public import SpeakEasyModel

/// What a `validate` run checks and when it stops.
public struct ValidationOptions: Sendable {
    /// The rules that run (default: all that apply to the input).
    public var rules: Set<Rule> = Set(Rule.allCases)
    /// Whose reading of `EventDate` is judged, as Azure serves it: the app's, a seven-digit client's,
    /// or the service's own.
    public var dateFormat: EventDateCheck = .app
    /// Earliest allowed EventDate, inclusive.
    public var from: EdmDateTime?
    /// Latest allowed EventDate, inclusive.
    public var cutoff: EdmDateTime?
    /// Stop reading once this many findings fail the run; nil for no limit.
    public var maxErrors: Int?
    /// Warnings fail the run too (and count towards ``maxErrors``).
    public var warningsAsErrors = false
    /// Whether a seed is writing to the store being checked, when the caller can tell: an unfinished
    /// manifest then means "wait", not "interrupted".
    package var seedRunning: Bool?
    /// Whether the report gets the data's picture besides its findings (``ReportOverview``; the HTML
    /// report draws it), and, for a store, the speakers' photos.
    package var collectsOverview = false

    /// Every rule, no date range, no limit on findings.
    public init() {}

    /// Whether a finding of this severity fails the run.
    public func fails(_ severity: Severity) -> Bool { severity == .error || warningsAsErrors }
}
