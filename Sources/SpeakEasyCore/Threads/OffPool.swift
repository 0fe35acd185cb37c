/// Runs blocking work — a reader that waits on its prefetching threads, a long file scan — on a
/// thread of its own while the calling task waits suspended.
///
/// Swift's cooperative pool has one thread per core for every task of the process; a task that blocks
/// one of them holds up the others (a server's requests, a progress bar). The work runs to its end
/// before this returns, so it may use the caller's state as a synchronous call would.
package func offPool<T, Failure: Error>(_ body: () throws(Failure) -> T) async throws(Failure) -> T {
    let result: Result<T, Failure> = await withoutActuallyEscaping(body) { body in
        let work = BlockingWork(body)
        var thread: WorkerThread?
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
            thread = WorkerThread { continuation.resume(returning: work.run()) }
        }
        thread?.join()  // the body has returned: only the thread's exit is left to wait for
        return result
    }
    return try result.get()
}

/// The work, handed to the thread that runs it. Unchecked: the caller stays suspended until it is done,
/// so the work's state is never used from two threads at once.
private final class BlockingWork<T, Failure: Error>: @unchecked Sendable {
    private let body: () throws(Failure) -> T
    init(_ body: @escaping () throws(Failure) -> T) { self.body = body }
    func run() -> Result<T, Failure> {
        do throws(Failure) { return .success(try body()) } catch { return .failure(error) }
    }
}
