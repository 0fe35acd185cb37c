/// What kind of failure an error is, so every tool maps it to the same exit status (sysexits).
package enum FailureKind: Sendable {
    /// Options that contradict each other or cannot be met (64).
    case usage
    /// Input data that is malformed, with its location (65).
    case malformedInput
    /// An input file that does not exist (66).
    case inputMissing
    /// A store that cannot be reached, is busy, or refuses us (69).
    case storageUnavailable
    /// An output or store that cannot be created or written (73).
    case cannotCreateOutput
    /// Reading or writing failed part-way (74).
    case ioError

    package var exitCode: Int32 {
        switch self {
        case .usage: 64
        case .malformedInput: 65
        case .inputMissing: 66
        case .storageUnavailable: 69
        case .cannotCreateOutput: 73
        case .ioError: 74
        }
    }
}

/// An error that knows its ``FailureKind``.
package protocol ClassifiedError: Error, CustomStringConvertible {
    var kind: FailureKind { get }
}
