import SpeakEasyCore
import SpeakEasyStorage

/// The page that follows a query page just read, read on a connection of its own while the caller is
/// busy with that one: a client reading a partition through its continuations (a page at a time, each
/// asked for once the one before has arrived) then finds its next page read already.
///
/// A page read ahead is given out only when nothing was committed since it was read, by any
/// connection or process: `PRAGMA data_version`, read in the page's own transaction and again at
/// the time it is asked for, says so. The answer is then exactly what reading it anew would give.
final class SQLiteReadAhead: Sendable {
    struct Key: Hashable, Sendable {
        var table: String
        var query: EntityQuery
        var from: ContinuationToken
        var limit: Int
    }

    /// A page and the data version of the snapshot it was read from.
    typealias Read = (page: StoredEntityPage, dataVersion: Int64)

    /// Pages read ahead are kept for a few clients at a time; the oldest goes first.
    private static let capacity = 4

    private let worker: SQLiteWorkers
    private let pending = Locked<[(key: Key, read: Task<Read, any Error>)]>([])

    init(_ connection: SQLiteConnection) { worker = SQLiteWorkers([connection]) }

    func stop() { worker.stop() }

    /// Starts reading the page at `key` with `read`, which runs inside a read transaction.
    func start(_ key: Key, _ read: @escaping @Sendable (SQLiteConnection) throws -> StoredEntityPage) {
        let worker = self.worker
        let task = Task { () async throws -> Read in
            try await worker.run { connection -> Read in
                try connection.transaction(readOnly: true) {
                    // First: it begins the snapshot that the page is then read from.
                    let version = try connection.integer("PRAGMA data_version") ?? 0
                    return (page: try read(connection), dataVersion: version)
                }
            }
        }
        pending.withLock { pending in
            pending.removeAll { $0.key == key }
            if pending.count == Self.capacity { pending.removeFirst().read.cancel() }
            pending.append((key, task))
        }
    }

    /// The page at `key` if it was read ahead and nothing was committed since; nil otherwise.
    func take(_ key: Key) async -> StoredEntityPage? {
        let task = pending.withLock { pending in
            pending.firstIndex { $0.key == key }.map { pending.remove(at: $0).read }
        }
        guard let task, let read = try? await task.value else { return nil }
        let now = try? await worker.run { connection in try connection.integer("PRAGMA data_version") }
        return now == read.dataVersion ? read.page : nil
    }
}
