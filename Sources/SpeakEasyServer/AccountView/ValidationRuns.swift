import SpeakEasyCore
import SpeakEasyModel
import SpeakEasyStorage
import SpeakEasyValidation

/// The browser view's `validate` runs on the served account: the last one's result, kept until the
/// next, and at most one run at a time (asking while one runs waits for it rather than starting
/// another pass over the account).
final class ValidationRuns: Sendable {
    /// A finished run: its report, or why there is none (no `events` table), and when it ended.
    struct Run: Sendable {
        var result: Result<ValidationReport, any Error>
        var finished: EdmDateTime
    }

    private struct State {
        var last: Run?
        var running: Task<Run, Never>?
    }

    private let state = Locked(State())

    var last: Run? { state.withLock { $0.last } }

    /// Runs `validate` on `account` with every rule, as `validate --store` does, or waits for the run
    /// in flight; returns what it found.
    func run(_ account: any StorageAccount) async -> Run {
        let task = state.withLock { state in
            if let running = state.running { return running }
            // Off the event loop the request's task prefers (a task inherits that): the run is
            // seconds of CPU on a large account, which would hold every connection on the loop.
            let task = Task(executorPreference: globalConcurrentExecutor) {
                let result = await Result(awaiting: {
                    try await StoreValidation.run(account, options: ValidationOptions())
                })
                return Run(result: result, finished: EdmDateTime.now())
            }
            state.running = task
            return task
        }
        let run = await task.value
        state.withLock { state in
            state.last = run
            state.running = nil
        }
        return run
    }
}

extension Result where Failure == any Error {
    /// The result of an async throwing body.
    init(awaiting body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
