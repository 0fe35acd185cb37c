import SpeakEasyCore
import SpeakEasyStorage

/// Reading connections lent to the calling thread, for reads that are short and bounded: one
/// entity by its keys, one blob (a photo), a container's properties.
///
/// Sending such a read to a worker thread and back costs two thread switches, which on a server's
/// point reads came to more than the read itself. A caller that finds every connection lent out
/// is told so, and sends the read to the workers instead, so nothing waits here.
final class SQLiteConnectionPool: Sendable {
    private let idle: Locked<[Lent]>

    init(_ connections: [SQLiteConnection]) { idle = Locked(connections.map(Lent.init)) }

    /// Runs `body` on an idle connection; nil, without running it, when none is idle.
    func withIdleConnection<T>(_ body: (SQLiteConnection) throws -> T) rethrows -> T? {
        guard let lent = idle.withLock({ $0.popLast() }) else { return nil }
        defer { idle.withLock { $0.append(lent) } }
        return try body(lent.connection)
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
