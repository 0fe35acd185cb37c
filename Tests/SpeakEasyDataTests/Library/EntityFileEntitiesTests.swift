import Foundation
import SpeakEasyData
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `EntityFile.entities(at:)` reads on threads of its own, never on Swift's cooperative pool.
@Suite struct EntityFileEntitiesTests {
    /// More readers than the pool has threads, each waiting on a pipe that has no writer yet: were
    /// they waiting on the pool's threads, no other task would run until the pipes are written.
    @Test func readersWaitingOnTheDiskLeaveThePoolFree() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fifo-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let readers = ProcessInfo.processInfo.activeProcessorCount + 2
        let pipes = (0..<readers).map { "\(directory)/\($0).ndjson" }
        for pipe in pipes { #expect(mkfifo(pipe, 0o600) == 0) }
        let lines = (0..<600).map { "{\"PartitionKey\":\"p\",\"RowKey\":\"r\($0)\"}\n" }.joined()

        // A thread of its own watches, so that it runs however busy the pool is. Once every reader
        // has started (each takes a pool thread to start) and had time to reach its pipe, it asks the
        // pool to run one small task; then it writes the pipes whether or not that task ran, so that
        // the test ends either way. The waits are long: other tests may keep the pool busy too.
        let started = DispatchSemaphore(value: 0)
        let poolRan = DispatchSemaphore(value: 0)
        let watched = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var poolWasFree = false
        let watchdog = Thread {
            let allStarted = (0..<readers).allSatisfy { _ in started.wait(timeout: .now() + 120) == .success }
            if allStarted {
                Thread.sleep(forTimeInterval: 1)
                Task.detached { poolRan.signal() }
                poolWasFree = poolRan.wait(timeout: .now() + 120) == .success
            }
            Self.fill(pipes, with: lines)
            watched.signal()
        }
        watchdog.start()

        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for pipe in pipes {
                group.addTask {
                    started.signal()
                    var count = 0
                    for try await _ in EntityFile.entities(at: pipe, format: .ndjson) { count += 1 }
                    return count
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        await withCheckedContinuation { continuation in
            Thread {
                watched.wait()
                continuation.resume()
            }.start()
        }
        #expect(poolWasFree, "the readers held up the cooperative pool while they waited on the pipes")
        #expect(counts == Array(repeating: 600, count: readers))
    }

    /// Writes `text` into each pipe as its reader opens it, in whatever order they open (a reader
    /// that cannot start until another pipe is written must not hold up the rest).
    private static func fill(_ pipes: [String], with text: String) {
        var waiting = pipes
        while !waiting.isEmpty {
            waiting.removeAll { pipe in
                let descriptor = open(pipe, O_WRONLY | O_NONBLOCK)  // ENXIO while no reader has it open
                guard descriptor >= 0 else { return false }
                _ = fcntl(descriptor, F_SETFL, 0)
                _ = text.withCString { write(descriptor, $0, strlen($0)) }
                close(descriptor)
                return true
            }
            if !waiting.isEmpty { Thread.sleep(forTimeInterval: 0.01) }
        }
    }

    /// Read in batches, the entities come in order with their lines, and an error comes after the
    /// entities before it.
    @Test func batchesKeepOrderLinesAndTheErrorsPlace() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("batches-\(UUID().uuidString).ndjson")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let good = (0..<700).map { "{\"PartitionKey\":\"p\",\"RowKey\":\"r\($0)\"}\n" }.joined()
        try Data((good + "{\"PartitionKey\":\n").utf8).write(to: URL(fileURLWithPath: path))
        var iterator = EntityFile.entities(at: path).makeAsyncIterator()
        var rowKeys: [String] = []
        var lines: [Int] = []
        var error: FormatError?
        do {
            while let entity = try await iterator.next() {
                rowKeys.append(entity.rowKey)
                lines.append(iterator.line)
            }
        } catch let failure {
            error = failure
        }
        #expect(rowKeys == (0..<700).map { "r\($0)" })
        #expect(lines == Array(1...700))
        #expect((error?.line ?? 0) >= 701 && error?.kind == .malformedInput, "\(String(describing: error))")
        #expect(try await iterator.next() == nil)
    }
}
