import SpeakEasyCore
import SpeakEasyStorage

/// Reading connections lent to the calling thread, for reads that are short and bounded: one
/// entity by its keys, one blob (a photo), a container's properties.
///
/// Sending such a read to a worker thread and back costs two thread switches, which on a server's
/// point reads came to more than the read itself. Nothing waits here: a caller that finds every
/// connection lent out, or the database locked, is told so, and sends the read to the workers.
///
/// The calling thread is a server's event loop, which every connection on it shares. Under the
/// rollback journal of the session that creates a store, a read waits while a commit writes, and
/// with the busy timeout of the other connections (10 s) one point read beside a stream of batch
/// commits held a loop, and each client on it, for as long. So these connections wait for no lock.
final class SQLiteConnectionPool: Sendable {
    private let idle: Locked<[Lent]>

    init(_ connections: [SQLiteConnection]) {
        for connection in connections { connection.waitForLocks(milliseconds: 0) }
        idle = Locked(connections.map(Lent.init))
    }

    /// Runs `body` on an idle connection; nil when none is idle, or when another connection's lock
    /// stopped it (so `body` must be a read, safe to run again elsewhere).
    func withIdleConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T? {
        guard let lent = idle.withLock({ $0.popLast() }) else { return nil }
        defer { idle.withLock { $0.append(lent) } }
        do {
            return try body(lent.connection)
        } catch let error as SQLiteError where error.isLocked {
            return nil
        }
    }

    /// A connection that one thread at a time takes from the pool.
    private final class Lent: @unchecked Sendable {
        let connection: SQLiteConnection
        init(_ connection: SQLiteConnection) { self.connection = connection }
    }

    /// Closes the connections (those lent out close when given back and released).
    func close() {
        idle.withLock { connections in
            while !connections.isEmpty { connections.removeLast() }
        }
    }
}
