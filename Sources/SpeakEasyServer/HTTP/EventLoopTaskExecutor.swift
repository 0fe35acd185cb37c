import NIOCore

/// An event loop as a task executor: a task that prefers it (`Task(executorPreference:)`) runs its
/// nonisolated code on the loop, and child tasks inherit that unless they ask for another.
///
/// A connection's requests are answered on its loop this way: most replies are made without waiting
/// (a point read or a photo is read on the calling thread, `SQLiteConnectionPool`), and are then
/// written with no thread switch at all. It is scoped to those tasks, unlike NIO's
/// `unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`, which `serve` used to
/// call: that put every task of the process on the loops, in `serve` but not in the tests' servers.
///
/// A job goes to the loop as that hook sent it: `EventLoop.enqueue`, which queues it without a
/// closure and runs it as the loop's serial executor. Running it as this task executor instead
/// (`execute { job.runSynchronously(on: asUnownedTaskExecutor()) }`) cost point reads 13-32% more
/// CPU a request in bench/serve-compare, photo GETs 33%.
final class EventLoopTaskExecutor: TaskExecutor {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        loop.enqueue(job)
    }
}
