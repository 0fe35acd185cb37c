package import SpeakEasyCore

/// Options the generator cannot satisfy; raised before anything is written.
package struct GenerationError: ClassifiedError, Equatable {
    package let reason: String
    package var kind: FailureKind { .usage }
    package var description: String { reason }
}
