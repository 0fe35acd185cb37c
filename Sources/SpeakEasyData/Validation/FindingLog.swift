/// The findings of a run so far: drops those of rules not selected and knows when `--max-errors`
/// has been reached.
package struct FindingLog: Sendable {
    package private(set) var findings: [Finding] = []
    package private(set) var failing = 0
    private let options: ValidationOptions
    private let enabled: UInt64

    package init(options: ValidationOptions) {
        self.options = options
        enabled = options.rules.reduce(0) { $0 | 1 << UInt64($1.bit) }
    }

    /// Whether the rule runs at all (checks skip their work when not).
    @inline(__always) package func isOn(_ rule: Rule) -> Bool { enabled & 1 << UInt64(rule.bit) != 0 }

    /// True once `--max-errors` findings that fail the run have been recorded.
    package var isFull: Bool {
        guard let limit = options.maxErrors else { return false }
        return failing >= limit
    }

    package mutating func add(_ rule: Rule, _ message: String, at location: FindingLocation, related: [FindingLocation] = []) {
        guard isOn(rule), !isFull else { return }
        findings.append(Finding(rule: rule.id, severity: rule.severity, message: message, location: location, related: related))
        if options.fails(rule.severity) { failing += 1 }
    }
}
