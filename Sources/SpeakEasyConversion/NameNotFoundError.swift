package import SpeakEasyCore

/// A name that selects data — a table, a partition, a property — that the data does not have. An
/// error rather than an empty output, because it is nearly always a typo; it lists the names there
/// are. A table or partition is input that is missing (66); a property is an option that names
/// nothing (64).
package struct NameNotFoundError: ClassifiedError, Equatable {
    /// The option that gave the name (`--partition`).
    package let option: String
    package let name: String
    /// Where it was looked for, for the message: `a partition of table 'events'`.
    package let what: String
    /// The names there are, sorted.
    package let known: [String]
    package let kind: FailureKind

    package init(option: String, name: String, what: String, known: [String], kind: FailureKind) {
        self.option = option
        self.name = name
        self.what = what
        self.known = known
        self.kind = kind
    }

    /// Shows this many of the names there are, so a wide table does not flood the terminal.
    static let shownNames = 30

    package var description: String {
        let list =
            known.isEmpty
            ? "there are none"
            : "there are: " + known.prefix(Self.shownNames).joined(separator: ", ")
                + (known.count > Self.shownNames ? ", … (\(known.count) in all)" : "")
        return "\(option) \(name): no \(what) has that name; \(list)"
    }
}
