import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `validate` meets an unfinished manifest: it tells a seed that is still running from one that was
/// killed, and only for the killed one says to run the seed again.
@Suite("validate during a seed", .serialized)
struct ValidateDuringSeedTests {
    @Test("while seed writes: 'a seed is writing to this store now'; after a SIGKILL: 'interrupted'")
    func runningThenInterrupted() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let seed = try SeedTool.start(["--seed", "9", "--events", "400000", "--from", "2026-01-01", "--store", store], in: scratch.path)
        // Stopped, the seed still holds its store (and its lock) but cannot finish while validate
        // reads. Until its manifest is there (or while a stop inside a commit leaves the store locked,
        // 69), let it go on a moment and stop it again. 400,000 events take many batches: it is
        // stopped far from its end.
        var seen: ProcessResult?
        let deadline = Date().addingTimeInterval(60)
        while seed.isRunning, Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
            guard fileExists(store) else { continue }
            seed.kill(SIGSTOP)
            let result = try await BuiltTool.validate.run(["--store", store, "--rule", "manifest"], in: scratch.path)
            if result.stdout.contains("unfinished") {
                seen = result
                break
            }
            seed.kill(SIGCONT)
        }
        seed.kill(SIGKILL)
        let seedResult = await seed.finish()
        let running = try #require(seen, "validate never met the seed's unfinished manifest: \(seedResult)")
        #expect(running.status == 1, "\(running)")
        #expect(running.stdout.contains("the seed manifest is unfinished ('in progress'): a seed is writing to this store now; validate when it has finished"), "\(running)")
        #expect(!running.stdout.contains("run the same seed command"), "\(running)")

        let interrupted = try await BuiltTool.validate.run(["--store", store, "--rule", "manifest"], in: scratch.path)
        #expect(interrupted.status == 1, "\(interrupted)")
        #expect(interrupted.stdout.contains("a seed run was interrupted; run the same seed command again to finish it"), "\(interrupted)")
    }
}
