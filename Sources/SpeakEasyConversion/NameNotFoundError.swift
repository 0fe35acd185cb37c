public import SpeakEasyCore

/// A name that selects data — a table, a partition, a property — that the data does not have. An
/// error rather than an empty output, because it is nearly always a typo; it lists the names there
/// are. A table or partition is input that is missing (``FailureKind/inputMissing``); a property is
/// an option that names nothing (``FailureKind/usage``).
public struct NameNotFoundError: ClassifiedError, Equatable, Sendable {
    /// The tool's option that gave the name (`--partition`), for its message.
    package let option: String
    /// The name given.
    public let name: String
    /// Where it was looked for: `a partition of table 'events'`.
    public let what: String
    /// The names there are, sorted.
    public let known: [String]
    /// ``FailureKind/inputMissing`` for a table or partition, ``FailureKind/usage`` for a property.
    public let kind: FailureKind

    package init(option: String, name: String, what: String, known: [String], kind: FailureKind) {
        self.option = option
        self.name = name
        self.what = what
        self.known = known
        self.kind = kind
    }

    /// Shows this many of the names there are, so a wide table does not flood the terminal.
    static let shownNames = 30

    /// `'events': no partition of table 'events' has that name; there are: Events, speakers`.
    public var description: String { "'\(name)': " + explanation }

    /// The same, after the tool's option: `--partition events: no partition of …`.
    package var toolDescription: String { "\(option) \(name): " + explanation }

    private var explanation: String {
        let list =
            known.isEmpty
            ? "there are none"
            : "there are: " + known.prefix(Self.shownNames).joined(separator: ", ")
                + (known.count > Self.shownNames ? ", … (\(known.count) in all)" : "")
        return "no \(what) has that name; \(list)"
    }
}
