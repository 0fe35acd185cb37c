#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes an output's full ``AlignedStage``s past the page cache, in the order handed on, on a thread
/// of its own while the caller fills the next stage (``OutputFile``).
///
/// A direct write returns only once the device holds its bytes. On the caller's thread, that was a
/// thread of Swift's pool blocked in `write(2)` (`dd` here: 2.3 GB/s, so 0.7 s for the 1.6 GB of
/// `export --parallel 16` of 1,000,000 events), and the pages the pool was copying waited. On a
/// thread of its own, that export against `serve --latency 20` took 3.46–3.66 s where it had taken
/// 3.55–3.99 s (three runs each, alternated).
package final class DirectWriter {
    /// Stages filled and waiting to be written, in order; nil ends the thread.
    private let full: BoundedQueue<AlignedStage?>
    private let empty: BoundedQueue<AlignedStage>
    private let failure: Locked<FileError?>
    private let thread: WorkerThread
    private var finished = false

    /// Starts the thread that writes to `fd`, which is open with `O_DIRECT`; `name` names the file in
    /// errors. `stages` stages of `capacity` bytes go round between the caller and the thread: the
    /// memory it takes, whatever the file's size.
    package init(fd: Int32, name: String, stages: Int = 3, capacity: Int) {
        // One more than the stages: room for the nil that ends the thread.
        let full = BoundedQueue<AlignedStage?>(capacity: stages + 1)
        let empty = BoundedQueue<AlignedStage>(capacity: stages)
        let failure = Locked<FileError?>(nil)
        for _ in 0..<stages { _ = empty.push(AlignedStage(capacity: capacity)) }
        (self.full, self.empty, self.failure) = (full, empty, failure)
        thread = WorkerThread {
            var direct = true
            while let stage = full.pop() {
                // After a failure the rest is not written: the output is abandoned anyway.
                if failure.withLock({ $0 }) == nil {
                    do throws(FileError) {
                        try Self.write(stage.bytes, to: fd, name: name, direct: &direct)
                    } catch {
                        failure.withLock { $0 = error }
                    }
                }
                stage.empty()
                _ = empty.push(stage)
            }
        }
    }

    deinit { if !finished { try? finish() } }

    /// An empty stage to fill, waiting while every stage is full or being written.
    package func emptyStage() -> AlignedStage { empty.pop() }

    /// Hands a full stage to the thread; throws, keeping nothing, the first failure of a write
    /// handed on before.
    package func write(_ stage: AlignedStage) throws(FileError) {
        if let error = failure.withLock({ $0 }) { throw error }
        _ = full.push(stage)
    }

    /// Waits for every stage handed on to be written, and for the thread to end; throws the first
    /// failure.
    package func finish() throws(FileError) {
        guard !finished else { return }
        finished = true
        _ = full.push(nil)
        thread.join()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Writes whole blocks past the page cache. A short write, or a file system that takes `O_DIRECT`
    /// but refuses the write (EINVAL: blocks larger than 4 KiB), sends the rest, and all that
    /// follows, through the cache.
    private static func write(
        _ bytes: UnsafeRawBufferPointer,
        to fd: Int32,
        name: String,
        direct: inout Bool
    ) throws(FileError) {
        var written = 0
        while direct {
            let result = posixWrite(fd, bytes.baseAddress!, bytes.count)
            if result == bytes.count { return }
            if result > 0 {
                written = result
                break
            }
            let code = errno
            if code == EINTR { continue }
            guard code == EINVAL else {
                throw FileError(path: name, reason: "write failed: " + String(cString: strerror(code)), kind: .ioError)
            }
            break
        }
        if direct {
            direct = false
            OutputFile.endDirectWrites(fd)
        }
        try OutputFile.writeAll(UnsafeRawBufferPointer(rebasing: bytes.dropFirst(written)), to: fd, name: name)
    }
}
