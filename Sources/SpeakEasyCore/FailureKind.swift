/// What kind of failure an error is: what went wrong, in the few kinds a tool tells apart. The tools
/// map each kind to an exit status (CLISupport's `ExitStatus`).
package enum FailureKind: Sendable, CaseIterable {
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
}
