#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files an ``OutputFile`` has open, removed if the process is interrupted (Ctrl-C,
/// `kill`, a closed terminal, any other signal whose default is to end the process and that can be
/// caught), so an interrupted run leaves nothing behind, as a failed one does. (SIGKILL cannot be
/// caught: ``OutputFile`` removes what a killed writer left on the next run.)
///
/// A signal handler may only call async-signal-safe functions: it walks a fixed table of C strings
/// made in advance and calls `unlink`, then dies of the signal as it would have. Registering stores
/// one pointer in a free slot, which is all the handler can see half-done.
///
/// Writers on several threads register and forget at once (the tests run in parallel), so both take
/// ``writers``: without it two could claim the same free slot, and both forget and free one path.
/// The handler takes no lock (a signal may arrive while the lock is held); ``forget(_:)`` clears
/// the slot before it frees the path, so the handler never reads a freed one.
package enum TemporaryFiles {
    private static let capacity = 16
    /// How many files are registered. Not a `Locked(())`: ThreadSanitizer placed that empty value at
    /// the lock object's own address and reported an access to it outside the lock, in `withLock`.
    private static let writers = Locked(0)
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
        let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
        return slots
    }()

    /// The signals that end a process by default and can be caught, except the ones a fault raises
    /// (SIGSEGV, SIGILL, …: the runtime's crash report owns those) and SIGPIPE (the tools ignore it
    /// and meet a closed pipe as a write error).
    static var terminating: [Int32] {
        var signals = [
            SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
        ]
        #if os(Linux)
        signals += [SIGIO, SIGPWR, SIGSTKFLT]
        #endif
        return signals
    }

    /// Removes registered files on every signal of ``terminating``; the tools call this once at start.
    package static func removeOnInterrupt() {
        _ = slots
        SignalHandler.installOnce(for: terminating) { number in TemporaryFiles.interrupted(number) }
    }

    /// Remembers `path`; returns its slot for ``forget(_:)``, or nil when the table is full (the file
    /// is then only removed by a normal exit).
    package static func register(_ path: String) -> Int? {
        writers.withLock { registered in
            for index in 0..<capacity where slots[index] == nil {
                slots[index] = strdup(path)
                registered += 1
                return index
            }
            return nil
        }
    }

    package static func forget(_ slot: Int?) {
        guard let slot else { return }
        writers.withLock { registered in
            guard let path = slots[slot] else { return }
            slots[slot] = nil
            free(path)
            registered -= 1
        }
    }

    private static func interrupted(_ number: Int32) {
        for index in 0..<capacity {
            if let path = slots[index] { unlink(path) }
        }
        // SA_RESETHAND restored the default action: die of the same signal, as the shell expects.
        raise(number)
    }
}
