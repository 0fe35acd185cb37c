package import SpeakEasyData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Marks a local store as being seeded for as long as the `seed` process lives, so `validate` can
/// tell a seed that is running from one that was interrupted (both leave an unfinished manifest).
///
/// An exclusive `flock` on the store file: the kernel drops it however the process ends, SIGKILL
/// included, and it does not meet SQLite's own locks, which are `fcntl` locks. The file is opened
/// without blocking: a `--store` that names a FIFO would wait in `open` for a writer, and the store's
/// own checks refuse it once this returns.
package enum SeedLock {
    /// Marks a local store; an account elsewhere has no file to mark. False when another seed holds
    /// the lock: it is writing to this store now.
    @discardableResult
    package static func hold(_ location: StorageLocation) -> Bool {
        if case .local(let path) = location { return hold(path) }
        return true
    }

    /// Waits until no other seed holds a local store's lock, then takes it for the rest of the
    /// process; at once when this process holds it already. A merge that ran beside another seed
    /// (unmarked: ``hold(_:)`` returned false) calls it before its manifest counts the table, so that
    /// it counts after the other has written everything. Polled, so that Ctrl-C (the task's
    /// cancellation) ends the wait.
    package static func waitForTurn(_ location: StorageLocation) async throws {
        guard case .local(let path) = location, !held.withLock({ $0.contains(path) }) else { return }
        // Never closed, as in hold(_:).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        held.withLock { _ = $0.insert(path) }
    }

    /// The stores whose lock this process holds: a second `flock` of its own would wait on itself.
    private static let held = Locked<Set<String>>([])

    /// Whether a seed holds a local store's lock (nil: the account is not a local file).
    package static func isHeld(_ location: StorageLocation) -> Bool? {
        if case .local(let path) = location { return isHeld(path) }
        return nil
    }

    /// Takes the lock for the rest of the process; false when another seed holds it. The descriptor
    /// is never closed: closing any descriptor of the file would drop the `fcntl` locks SQLite holds
    /// on it in this process.
    @discardableResult
    package static func hold(_ path: String) -> Bool {
        // Asked again: the first answer stands (a second flock of this process would wait on itself).
        if let answer = asked.withLock({ $0[path] }) { return answer }
        // No file yet: nothing to mark; the seed that creates it asks again.
        guard let answer = tryToHold(path) else { return true }
        asked.withLock { $0[path] = answer }
        return answer
    }

    /// What ``hold(_:)`` answered for each path this process asked about.
    private static let asked = Locked<[String: Bool]>([:])

    private static func tryToHold(_ path: String) -> Bool? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        // A validate asking ``isHeld`` holds a shared lock for a moment: try again for up to a
        // second, or a seed that starts just then would run unmarked. Past that another seed holds
        // it, which the caller is told.
        for _ in 0..<200 {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                held.withLock { _ = $0.insert(path) }
                return true
            }
            if errno != EWOULDBLOCK { return true }
            usleep(5_000)
        }
        return false
    }

    /// Whether a seed holds the lock now. Call before opening the store (see ``hold(_:)``).
    package static func isHeld(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }
}
