public import SpeakEasyCore

/// Input that cannot be read as its format says, or output that cannot be written, with where.
///
/// `source` names the file (or `stdin`, or a store); `line` and `column` are 1-based and point at the
/// offending byte; `keys` names the entity when the problem is a value rather than the syntax.
public struct FormatError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file, `stdin`, or the store the problem is in.
    public var source: String
    /// The 1-based line of the offending byte, when known.
    public var line: Int?
    /// The 1-based column of the offending byte, when known.
    public var column: Int?
    /// (PartitionKey, RowKey) of the entity the problem is in, when known.
    public var keys: (partitionKey: String, rowKey: String)?
    /// What is wrong, in words.
    public var reason: String
    /// What kind of failure it is: ``FailureKind/inputMissing`` for a file that is not there,
    /// ``FailureKind/malformedInput`` for content that is not the format, ``FailureKind/ioError`` or
    /// ``FailureKind/cannotCreateOutput`` for a file that cannot be read or written,
    /// ``FailureKind/usage`` for options that cannot be met (an output that is an input, two CSV layouts).
    public var kind: FailureKind
    /// What a tool adds after the message: the options that would help. The message itself names no
    /// command-line option.
    package var toolAdvice = ""

    package init(
        source: String,
        line: Int? = nil,
        column: Int? = nil,
        keys: (partitionKey: String, rowKey: String)? = nil,
        reason: String,
        kind: FailureKind = .malformedInput
    ) {
        self.source = source
        self.line = line
        self.column = column
        self.keys = keys
        self.reason = reason
        self.kind = kind
    }

    /// A file that could not be opened, read or written, where the input or output was.
    package init(_ error: FileError, line: Int? = nil) {
        self.init(source: error.path, line: line, reason: error.reason, kind: error.kind)
    }

    /// `events.csv:12:7: entity (PartitionKey 'Events', RowKey 'x'): reason`.
    public var description: String {
        var text = source
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": "
        if let keys { text += "entity (PartitionKey '\(keys.partitionKey)', RowKey '\(keys.rowKey)'): " }
        return text + reason
    }

    /// Whether two errors say the same about the same place.
    public static func == (lhs: FormatError, rhs: FormatError) -> Bool {
        lhs.source == rhs.source && lhs.line == rhs.line && lhs.column == rhs.column
            && lhs.keys?.partitionKey == rhs.keys?.partitionKey
            && lhs.keys?.rowKey == rhs.keys?.rowKey && lhs.reason == rhs.reason && lhs.kind == rhs.kind
    }
}

/// The tools map a format error onto an exit status by its kind.
extension FormatError: ClassifiedError {
    /// The message, then the options that would help.
    package var toolDescription: String { description + toolAdvice }
}
