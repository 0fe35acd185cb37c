/// What kind of failure an error is: what went wrong, in the few kinds a caller tells apart. The tools
/// map each kind to an exit status (the README's table); a program can tell, say, a file that
/// is not there (``inputMissing``) from one that is not its format (``malformedInput``).
public enum FailureKind: Sendable, Hashable, CaseIterable {
    /// Options that contradict each other or cannot be met.
    case usage
    /// Input data that is malformed, with its location.
    case malformedInput
    /// An input file that does not exist.
    case inputMissing
    /// A store that cannot be reached, is busy, or refuses us.
    case storageUnavailable
    /// An output or store that cannot be created or written.
    case cannotCreateOutput
    /// Reading or writing failed part-way.
    case ioError
}

/// An error that knows its ``FailureKind``.
package protocol ClassifiedError: Error, CustomStringConvertible {
    var kind: FailureKind { get }
    /// What a tool prints: the message in the tool's words, with the options that would help. The
    /// library's own messages (``description``) name no command-line option.
    var toolDescription: String { get }
}

extension ClassifiedError {
    /// The message as it is, for an error that names no option to help.
    package var toolDescription: String { description }
}
