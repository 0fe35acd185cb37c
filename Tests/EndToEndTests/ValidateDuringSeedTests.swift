import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `validate` meets an unfinished manifest: it tells a seed that is still running from one that was
/// killed, and only for the killed one says to run the seed again. A running seed is one that holds
/// the `flock` on its store file (SeedLock), taken here as seed takes it, so the outcome does not
/// depend on racing a live seed's transactions.
@Suite("validate during a seed", .serialized)
struct ValidateDuringSeedTests {
    @Test(
        "an unfinished manifest: 'a seed is writing to this store now' while the lock is held, 'interrupted' once it is not"
    )
    func runningThenInterrupted() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        // The manifest as a seed leaves it until it completes.
        let updated = try await SQLiteShell.run(
            store,
            "UPDATE entities SET properties = json_set(properties, '$.Status', 'in progress') WHERE table_name = 'seedmanifest'",
            readOnly: false
        )
        try #require(updated.status == 0, "\(updated)")

        // A seed running: its lock on the store file, taken here as seed takes it.
        let descriptor = open(store, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let running = try await BuiltTool.validate.run(["--store", store, "--rule", "manifest"], in: scratch.path)
        close(descriptor)
        #expect(running.status == 1, "\(running)")
        #expect(
            running.stdout.contains(
                "the seed manifest is unfinished ('in progress'): a seed is writing to this store now; validate when it has finished"
            ),
            "\(running)"
        )
        #expect(!running.stdout.contains("run the same seed command"), "\(running)")

        let interrupted = try await BuiltTool.validate.run(["--store", store, "--rule", "manifest"], in: scratch.path)
        #expect(interrupted.status == 1, "\(interrupted)")
        #expect(
            interrupted.stdout.contains("a seed run was interrupted; run the same seed command again to finish it"),
            "\(interrupted)"
        )
    }
}
