#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread running one closure, to be joined.
///
/// A POSIX thread: the standard library has no threads of its own, and Foundation's `Thread`, which
/// the library does not otherwise need, cannot be joined. `pthread_t` is an integer in Glibc and a
/// pointer in Darwin, and the start routine's argument optional in one and not the other: the only
/// differences, handled here.
package final class WorkerThread {
    #if canImport(Darwin)
    private var thread: pthread_t?
    #else
    private var thread = pthread_t()
    #endif

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    package init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let created = pthread_create(
            &thread,
            nil,
            { raw in
                WorkerThread.start(raw)
                return nil
            },
            context
        )
        precondition(created == 0, "pthread_create failed: \(created)")
    }

    /// The thread's start: runs the body that `init` passed.
    private static func start(_ raw: UnsafeMutableRawPointer?) {
        Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
    }

    /// Waits for the closure to finish.
    package func join() {
        #if canImport(Darwin)
        pthread_join(thread!, nil)
        #else
        pthread_join(thread, nil)
        #endif
    }
}
