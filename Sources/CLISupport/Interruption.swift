import SpeakEasyData
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C (SIGINT) or SIGTERM while a tool writes a store: instead of dying in the middle of a
/// transaction, which leaves SQLite's journal beside the store for the next run to roll back, the work
/// is cancelled. It stops at its next batch, the writes under way finish (each a whole transaction),
/// the store is closed, and the tool says so and exits as the signal would have (128 + its number).
/// A second signal ends the process at once, as the first one used to.
package enum Interruption {
    /// The signal that arrived, or 0. An atomic is all a signal handler may touch; it is made before
    /// any handler is set, since a lazy global's first use is not safe in a handler.
    private static let received = Atomic<Int32>(0)
    static let signals = [SIGINT, SIGTERM]

    /// The work was cancelled by `signal`.
    package struct Interrupted: Error {
        package let signal: Int32
        package var exitCode: Int32 { 128 + signal }
    }

    /// Runs `work`, cancelling it when SIGINT or SIGTERM arrives; work that then fails throws
    /// ``Interrupted``, whatever it threw (work that finished all the same returns).
    package static func cancelling<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        install()
        let task = Task { try await work() }
        // The handler can only set the flag; a task looks at it and cancels the work.
        let watcher = Task {
            while !Task.isCancelled {
                if received.load(ordering: .relaxed) != 0 { return task.cancel() }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        defer { watcher.cancel() }
        let result = await task.result
        let signal = received.load(ordering: .relaxed)
        if signal != 0, case .failure = result { throw Interrupted(signal: signal) }
        return try result.get()
    }

    private static func install() {
        _ = received.load(ordering: .relaxed)
        SignalHandler.installOnce(for: signals) { number in Interruption.received.store(number, ordering: .relaxed) }
    }
}
