import SpeakEasyCore
import SpeakEasyStorage

/// Connections to one database, each on a thread of its own, taking jobs from one queue.
///
/// SQLite calls block: a long write, a busy wait, a disk read. On threads of their own they never
/// hold up Swift's cooperative pool, which the rest of a process (a server's requests, a progress
/// bar) needs; and with several reading connections and WAL, reads go on while a write runs.
// @unchecked: `threads` is set once; `connections` is used by `stop` alone, after the threads have
// ended, and `stop` runs once; the queue is thread-safe.
final class SQLiteWorkers: @unchecked Sendable {
    private enum Job: Sendable {
        case run(@Sendable (SQLiteConnection) -> Void)
        case stop
    }

    private let jobs: BoundedQueue<Job>
    private let threads: [WorkerThread]
    /// Kept here so that `stop` closes them one after another: connections that close at the same
    /// moment each see the other still open, and none folds the WAL back in and removes its files.
    private var connections: [SQLiteConnection]
    private let stopped = Locked(false)

    /// Takes over the connections: from now on each is used by its own thread only.
    init(_ connections: [SQLiteConnection]) {
        let jobs = BoundedQueue<Job>(capacity: 1 << 20)
        self.jobs = jobs
        self.connections = connections
        threads = connections.map { connection in
            let owned = Owned(connection)
            return WorkerThread {
                while case .run(let body) = jobs.pop() { body(owned.connection) }
            }
        }
    }

    deinit { stop() }

    /// Lets the queued jobs finish, then closes the connections (once; later jobs are refused).
    func stop() {
        guard
            !stopped.withLock({
                let was = $0
                $0 = true
                return was
            })
        else { return }
        for _ in threads { _ = jobs.push(.stop) }
        for thread in threads { thread.join() }
        while !connections.isEmpty { connections.removeLast() }
    }

    /// Runs `body` on one of the connections, and returns what it returns. An `SQLiteError` is
    /// reported as the ``StorageError`` it stands for.
    func run<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let job = Job.run { connection in
                do {
                    continuation.resume(returning: try body(connection))
                } catch let error as SQLiteError {
                    continuation.resume(throwing: error.storageError)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            if !jobs.push(job) {
                continuation.resume(throwing: StorageError(.unavailable, account: "", "the store is closed"))
            }
        }
    }

    /// A connection handed to the one thread that will use it.
    private final class Owned: @unchecked Sendable {
        let connection: SQLiteConnection
        init(_ connection: SQLiteConnection) { self.connection = connection }
    }
}
