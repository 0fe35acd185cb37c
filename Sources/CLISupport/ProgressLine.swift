/// The text of a progress line: what is done, out of what total if one is known, and how fast — every
/// figure with its unit. A pure function of its figures, so it can be tested without a terminal.
package struct ProgressLine: Sendable, Equatable {
    /// What is counted: bytes of input, or things such as entities or events.
    package enum Unit: Sendable, Equatable {
        case bytes
        case count(String)
    }

    package var label: String
    package var done: Int64
    /// The total in the same unit; nil or 0 when it is not known (stdin, a store being read).
    package var total: Int64?
    package var unit: Unit
    /// Entities handled, shown beside a count of bytes.
    package var entities: Int?

    package init(_ label: String, done: Int64, total: Int64? = nil, unit: Unit, entities: Int? = nil) {
        self.label = label
        self.done = done
        self.total = total
        self.unit = unit
        self.entities = entities
    }

    static let barWidth = 24

    /// The line after `seconds` of work, e.g. `export ██████░░░ 45% · 120.3 MB of 267.0 MB · 12,345
    /// entities · 48.2 MB/s`, or with no total `export 12,345 entities · 48.2 MB · 3.1 MB/s`.
    package func text(seconds: Double) -> String {
        let rate = Double(done) / max(seconds, 0.001)
        var parts: [String] = []
        if let total, total > 0 {
            let fraction = min(1, Double(max(done, 0)) / Double(total))
            let filled = Int(fraction * Double(Self.barWidth))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: Self.barWidth - filled)
            parts.append("\(label) \(bar) \(Int(fraction * 100))%")
            switch unit {
            case .bytes: parts.append("\(Self.bytes(done)) of \(Self.bytes(total))")
            case .count(let noun): parts.append("\(Self.grouped(done)) of \(Self.grouped(total)) \(noun)")
            }
            if case .bytes = unit, let entities { parts.append("\(Self.grouped(Int64(entities))) entities") }
        } else {
            switch unit {
            case .bytes:
                var first = "\(label)"
                if let entities { first += " \(Self.grouped(Int64(entities))) entities ·" }
                parts.append("\(first) \(Self.bytes(done))")
            case .count(let noun): parts.append("\(label) \(Self.grouped(done)) \(noun)")
            }
        }
        switch unit {
        case .bytes: parts.append("\(Self.bytes(Int64(rate)))/s")
        case .count(let noun): parts.append("\(Self.grouped(Int64(rate))) \(noun)/s")
        }
        return parts.joined(separator: " · ")
    }

    /// Decimal units, one decimal place from kB up: `512 B`, `48.2 MB`, `1.1 GB`.
    package static func bytes(_ count: Int64) -> String {
        let units = ["kB", "MB", "GB", "TB", "PB"]
        guard count >= 1000 else { return "\(count) B" }
        var value = Double(count) / 1000
        var index = 0
        while value >= 999.95, index < units.count - 1 {
            value /= 1000
            index += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[index])"
    }

    /// Thousands separated by commas: `12,345`.
    package static func grouped(_ number: Int64) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return number < 0 ? "-" + text : text
    }
}
