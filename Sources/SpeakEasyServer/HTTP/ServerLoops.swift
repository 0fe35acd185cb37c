import NIOCore
import NIOPosix
import SpeakEasyCore

/// The event loops a server answers on, and the request tasks that run on them.
///
/// `serve` answers on the process's shared loops, a thread per core: it is alone in its process. A
/// server inside a process that does other work (a test's clients, other servers) has loops of its
/// own, as it would in a process of its own: a reply then waits for no one else's work on a shared
/// loop, and holds up no one's. CI once saw a request wait 30 s behind other servers' batches there.
/// Its own loops end with it, once every task that prefers them has ended: a task whose client left
/// may still be answering, and a job sent to an ended loop would never run.
final class ServerLoops: Sendable {
    let group: any EventLoopGroup
    /// The server's own loops; nil on the shared ones, which are never ended.
    private let owned: MultiThreadedEventLoopGroup?

    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())

    /// The shared loops (nil), or `threads` of the server's own.
    init(threads: Int?) {
        owned = threads.map { MultiThreadedEventLoopGroup(numberOfThreads: $0) }
        group = owned ?? MultiThreadedEventLoopGroup.singleton
    }

    /// Runs `body` as a task that prefers `executor`, one of these loops, counted until it ends.
    func task(on executor: EventLoopTaskExecutor, _ body: sending @escaping () async -> Void) {
        state.withLock { $0.running += 1 }
        Task(executorPreference: executor) {
            await body()
            let waiting = self.state.withLock { state in
                state.running -= 1
                guard state.running == 0 else { return [CheckedContinuation<Void, Never>]() }
                defer { state.waiting = [] }
                return state.waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    /// Waits for every task to end, then ends the server's own loops. Called once the listeners
    /// have stopped, when no new task can start.
    func close() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.running == 0 { return true }
                state.waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
        try? await owned?.shutdownGracefully()
    }
}
