import SpeakEasyCore

/// Faults `serve` injects on purpose, so that a client's retry logic can be tested against it
/// (`--faults`): chosen requests are answered with a 503 and `Retry-After`, a 500, a dropped
/// connection, a reply lost after the request was carried out, or a delay.
///
/// A plan is rules separated by commas; each is an action, then conditions after `/`:
///
///     503/every=3/batch              every third $batch request: 503 ServerBusy, Retry-After: 1
///     drop/first=2/path=/devstoreaccount1/photos   the first two requests under that path: no reply
///     500/first=1,delay=250/every=2  the first request: 500; every second one: 250 ms late
///     lose/every=5/batch             every fifth $batch is committed, then the connection closes
///
/// Actions: `503`, `500`, `drop` (before the request is read), `lose` (after it is carried out:
/// the client cannot tell whether it was), `delay=MS`. Conditions: `every=N` (each Nth match), `first=N`
/// (among the first N matches; neither: every match), `path=PREFIX` (the raw path starts with it),
/// `batch` (only `$batch` requests). Each rule counts the requests it matches; the first rule that
/// fires decides.
package final class FaultPlan: Sendable {
    package enum Action: Hashable, Sendable {
        case serverBusy
        case internalError
        case dropConnection
        /// Carry the request out, then close the connection without its reply.
        case loseReply
        case delay(milliseconds: Int)
    }

    struct Rule: Sendable {
        var action: Action
        var every: Int?
        var first: Int?
        var pathPrefix: String?
        var batchOnly = false
    }

    private let rules: [Rule]
    private let counts: Locked<[Int]>
    private let firedCounts = Locked<[Action: Int]>([:])

    package static let none = FaultPlan(rules: [])

    private init(rules: [Rule]) {
        self.rules = rules
        counts = Locked(Array(repeating: 0, count: rules.count))
    }

    /// Parses a plan; the error names the rule and what is wrong with it.
    package convenience init(parsing spec: String) throws(FaultPlanError) {
        var rules: [Rule] = []
        for text in spec.split(separator: ",").map({ $0.trimmingWhitespace }) where !text.isEmpty {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            let action: Action
            switch parts[0] {
            case "503": action = .serverBusy
            case "500": action = .internalError
            case "drop": action = .dropConnection
            case "lose": action = .loseReply
            case let delay where delay.hasPrefix("delay="):
                guard let milliseconds = Int(delay.dropFirst("delay=".count)), (0...600_000).contains(milliseconds)
                else {
                    throw FaultPlanError(rule: String(text), "a delay is delay=MILLISECONDS, at most 600000")
                }
                action = .delay(milliseconds: milliseconds)
            default: throw FaultPlanError(rule: String(text), "the action is one of 503, 500, drop, lose, delay=MS")
            }
            var rule = Rule(action: action)
            // `path=` takes the rest of the rule, since a path holds slashes.
            var index = 1
            while index < parts.count {
                let condition = parts[index]
                if condition.hasPrefix("path=") {
                    rule.pathPrefix = String(parts[index...].joined(separator: "/").dropFirst("path=".count))
                    break
                }
                switch condition {
                case "batch": rule.batchOnly = true
                case let every where every.hasPrefix("every="):
                    guard let n = Int(every.dropFirst("every=".count)), n > 0 else {
                        throw FaultPlanError(rule: String(text), "every=N needs N ≥ 1")
                    }
                    rule.every = n
                case let first where first.hasPrefix("first="):
                    guard let n = Int(first.dropFirst("first=".count)), n > 0 else {
                        throw FaultPlanError(rule: String(text), "first=N needs N ≥ 1")
                    }
                    rule.first = n
                default:
                    throw FaultPlanError(
                        rule: String(text),
                        "unknown condition '\(condition)' (every=N, first=N, path=PREFIX, batch)"
                    )
                }
                index += 1
            }
            rules.append(rule)
        }
        self.init(rules: rules)
    }

    package var isEmpty: Bool { rules.isEmpty }

    /// The fault for a request, if a rule fires for it.
    func fault(path: String) -> Action? {
        guard !rules.isEmpty else { return nil }
        let isBatch = path.hasSuffix("/$batch")
        return counts.withLock { counts in
            var fired: Action?
            for (index, rule) in rules.enumerated() {
                if rule.batchOnly, !isBatch { continue }
                if let prefix = rule.pathPrefix, !path.hasPrefix(prefix) { continue }
                counts[index] += 1
                let n = counts[index]
                let fires = (rule.first.map { n <= $0 } ?? true) && (rule.every.map { n % $0 == 0 } ?? true)
                if fires, fired == nil { fired = rule.action }
            }
            if let fired { firedCounts.withLock { $0[fired, default: 0] += 1 } }
            return fired
        }
    }

    /// How many requests each action has been applied to so far.
    package var fired: [Action: Int] { firedCounts.withLock { $0 } }
}

/// A `--faults` plan that cannot be read.
package struct FaultPlanError: Error, CustomStringConvertible {
    package let rule: String
    package let reason: String

    init(rule: String, _ reason: String) {
        self.rule = rule
        self.reason = reason
    }

    package var description: String { "fault rule '\(rule)': \(reason)" }
}

extension Substring {
    fileprivate var trimmingWhitespace: Substring {
        var text = self
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
