#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, behind a POSIX mutex.
///
/// Not the standard library's `Synchronization.Mutex`: on Linux that is a lock on a futex which
/// ThreadSanitizer does not see, so every access it guarded was reported as a race (36 reports in
/// the first TSan run of the suite, each inside `withLock`), and a real race would have hidden among
/// them. TSan knows `pthread_mutex_lock`, as it knows NIO's and Foundation's locks, and uncontended
/// it costs about the same.
package final class Locked<Value>: @unchecked Sendable {
    // Heap-allocated: a pthread mutex must not move in memory.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the value while no other thread can.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
