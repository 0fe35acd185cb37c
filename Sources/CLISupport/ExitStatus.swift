package import SpeakEasyData

/// The exit status of every failure, in one table (the README's Exit codes; sysexits.h): errors say
/// what happened, and only the tools decide what a shell sees.
package enum ExitStatus {
    package static func code(for kind: FailureKind) -> Int32 {
        switch kind {
        case .usage: 64
        case .malformedInput: 65
        case .inputMissing: 66
        case .storageUnavailable: 69
        case .cannotCreateOutput: 73
        case .ioError: 74
        }
    }

    /// What a storage account's failure means to a tool: a missing store is missing input; a store
    /// that is there but unusable is malformed input; one that cannot be reached or refuses us is
    /// unavailable; one we may not write cannot take the output.
    package static func kind(of reason: StorageError.Reason) -> FailureKind {
        switch reason {
        case .notFound: .inputMissing
        case .alreadyExists, .invalidInput, .unsupportedByService, .corrupt, .notModified, .invalidRange:
            .malformedInput
        case .preconditionFailed, .busy, .unreachable, .refused: .storageUnavailable
        case .unauthorized: .cannotCreateOutput
        case .unavailable: .ioError
        }
    }

    /// The kind of any error the tools report: an error that knows its kind, a storage account's
    /// failure, and anything else as an I/O error.
    package static func kind(of error: any Error) -> FailureKind {
        if let storage = error as? StorageError { return kind(of: storage.reason) }
        if let classified = error as? any ClassifiedError { return classified.kind }
        return .ioError
    }

    package static func code(for error: any Error) -> Int32 { code(for: kind(of: error)) }
}
