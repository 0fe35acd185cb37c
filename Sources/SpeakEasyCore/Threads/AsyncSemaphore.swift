/// At most `permits` holders at once; the others wait, in order, without blocking a thread. For a
/// bound shared by concurrent callers, such as requests in flight to one account.
package final class AsyncSemaphore: Sendable {
    private struct State {
        var available: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>

    package init(permits: Int) {
        state = Locked(State(available: max(1, permits)))
    }

    /// Runs `body` holding a permit.
    package func withPermit<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.available > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.available -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
