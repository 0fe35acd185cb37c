package import SpeakEasyModel

/// What a `validate` run checks and when it stops.
package struct ValidationOptions: Sendable {
    /// The rules that run (default: all that apply to the input).
    package var rules: Set<Rule> = Set(Rule.allCases)
    /// Whose reading of `EventDate` is judged, as Azure serves it: the app's, a seven-digit client's,
    /// or the service's own.
    package var dateFormat: EventDateCheck = .app
    /// Earliest allowed EventDate, inclusive.
    package var from: EdmDateTime?
    /// Latest allowed EventDate, inclusive.
    package var cutoff: EdmDateTime?
    /// Stop reading once this many findings fail the run; nil for no limit.
    package var maxErrors: Int?
    /// Warnings fail the run too (and count towards ``maxErrors``).
    package var warningsAsErrors = false
    /// Whether a seed is writing to the store being checked, when the caller can tell: an unfinished
    /// manifest then means "wait", not "interrupted".
    package var seedRunning: Bool?

    package init() {}

    /// Whether a finding of this severity fails the run.
    package func fails(_ severity: Severity) -> Bool { severity == .error || warningsAsErrors }
}
