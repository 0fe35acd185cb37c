import SpeakEasyCore

/// A value made on another thread (a Dispatch queue's), awaited by a task: whichever comes first,
/// the value or the wait, the other finds it.
final class Handoff<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, any Error>?
        var waiter: CheckedContinuation<Value, any Error>?
    }

    private let state = Locked(State())

    /// Hands over the value (or the error); once.
    func deliver(_ result: Result<Value, some Error>) {
        let result = result.mapError { $0 as any Error }
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.result = result
                return nil as CheckedContinuation<Value, any Error>?
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(with: result)
    }

    /// The value, when it has been handed over.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, any Error>? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
