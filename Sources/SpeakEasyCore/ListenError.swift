/// A port that cannot be listened on: taken by another process, not permitted, or on an address that
/// is not this machine's. The service cannot be offered (``FailureKind/storageUnavailable``, 69).
public struct ListenError: ClassifiedError, Sendable, Equatable {
    /// What happened, in plain words, naming the address and port.
    public let message: String

    package init(message: String) { self.message = message }

    /// Always ``FailureKind/storageUnavailable``.
    public var kind: FailureKind { .storageUnavailable }
    /// The message.
    public var description: String { message }
}
