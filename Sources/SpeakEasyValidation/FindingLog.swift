/// The findings of a run so far: drops those of rules not selected and knows when `--max-errors`
/// has cut the run short.
///
/// The log is full only once a finding beyond the limit was dropped: a run with exactly
/// `--max-errors` errors reads on to the end and reports them as complete, while one with more
/// says it is truncated, so no report presents a lower bound as the count.
package struct FindingLog: Sendable {
    package private(set) var findings: [Finding] = []
    package private(set) var failing = 0
    /// True once a finding was dropped because the limit had been reached.
    package private(set) var overflowed = false
    private let options: ValidationOptions
    private let enabled: UInt64

    package init(options: ValidationOptions) {
        self.options = options
        enabled = options.rules.reduce(0) { $0 | 1 << UInt64($1.bit) }
    }

    /// Whether the rule runs at all (checks skip their work when not).
    @inline(__always) package func isOn(_ rule: Rule) -> Bool { enabled & 1 << UInt64(rule.bit) != 0 }

    /// True once a finding had to be dropped at `--max-errors`: the caller stops reading.
    package var isFull: Bool { overflowed }

    private var atLimit: Bool {
        guard let limit = options.maxErrors else { return false }
        return failing >= limit
    }

    /// Adds `text` to the message of the finding at `index` (a hint known only later).
    mutating func append(_ text: String, toFindingAt index: Int) {
        findings[index].message += text
    }

    package mutating func add(
        _ rule: Rule,
        _ message: String,
        at location: FindingLocation,
        related: [FindingLocation] = []
    ) {
        guard isOn(rule) else { return }
        guard !atLimit else {
            overflowed = true
            return
        }
        findings.append(
            Finding(rule: rule.id, severity: rule.severity, message: message, location: location, related: related)
        )
        if options.fails(rule.severity) { failing += 1 }
    }
}
