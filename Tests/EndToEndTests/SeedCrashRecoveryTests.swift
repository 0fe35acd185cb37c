import Foundation
import SpeakEasyData
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `seed` killed part-way (SIGKILL: no cleanup at all) is finished by running the command again,
/// and the result is exactly what an uninterrupted run writes. Serialized: each test runs several
/// CPU-heavy processes, and alongside one another they would only take longer each.
@Suite("seed: crash safety", .serialized)
struct SeedCrashRecoveryTests {
    /// Large enough that a debug build writes for a second or so (four batches), so the kill lands
    /// mid-run; small enough that finishing it (which re-hashes the whole table) stays quick.
    static let eventCount = 40_000
    static let options = ["--seed", "5", "--events", String(eventCount), "--from", "2026-01-01"]

    /// What an uninterrupted run with `options` stores: made once, shared by the tests.
    struct Reference: Sendable {
        var eventsDigest: String
        var manifest: SeedManifest
        var counts: [String: Int]
        var blobs: [BlobProperties]
    }

    static let reference = Task<Reference, any Error> {
        let scratch = try Scratch()
        let store = scratch.file("reference.sqlite")
        let result = try await SeedTool.run(options + ["--quiet", "--store", store], in: scratch.path)
        guard result.status == 0 else {
            struct Failed: Error, CustomStringConvertible { var description: String }
            throw Failed(description: "the uninterrupted reference run failed: \(result)")
        }
        let contents = try await StoreContents.read(store, entities: false)
        guard let manifest = contents.manifest else {
            struct NoManifest: Error {}
            throw NoManifest()
        }
        return Reference(
            eventsDigest: try await SQLiteShell.eventsTableDigest(store),
            manifest: manifest,
            counts: contents.counts,
            blobs: contents.blobs
        )
    }

    /// Events committed so far, as another process sees them; nil while the store is busy or not there yet.
    static func committedEvents(_ store: String) async -> Int? {
        guard fileExists(store) else { return nil }
        let sql = "SELECT count(*) FROM entities WHERE table_name = 'events' AND partition_key = 'Events'"
        guard let result = try? await SQLiteShell.run(store, sql), result.status == 0 else { return nil }
        return Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Starts the run, waits until some events are committed, then sends it `signal` (SIGKILL: no
    /// cleanup at all). Returns the number of events committed just before, and how the run ended.
    @discardableResult
    static func interruptedRun(
        into store: String,
        in directory: String,
        options: [String] = options,
        signal: Int32 = SIGKILL
    ) async throws -> (committed: Int, result: ProcessResult) {
        var attempts: [ProcessResult] = []
        // Up to ten tries (hence the tests' 6-minute limits): under the whole suite's load on 2 cores
        // the poll (an sqlite3 process, which waits while the seed holds the store) has missed every
        // commit of a run that then finished, three times in a row.
        for _ in 0..<10 {
            let child = try SeedTool.start(options + ["--store", store], in: directory)
            // 90 s for the first commit: under ThreadSanitizer, beside the other end-to-end tests, a
            // seed of 40,000 events once committed none within 30 s.
            let deadline = Date().addingTimeInterval(90)
            var committed = 0
            while Date() < deadline, child.isRunning {
                if let count = await committedEvents(store), count > 0 {
                    committed = count
                    break
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            child.kill(signal)
            let killed = await child.finish()
            // Ended by the signal, or by the tool itself as the signal would have ended it.
            let signalled = killed.killedBySignal ? killed.status == signal : killed.status == 128 + signal
            // Killed, and mid-run: on a loaded machine the whole run has been committed, manifest and
            // all, between the poll and the kill (the re-run then found a finished run: exit 73). A
            // store left with a hot journal cannot be read read-only: mid-run, and left as it is.
            let finished = (try? await StoreContents.read(store, entities: false))?.manifest?.status == .complete
            if signalled && !finished {
                try #require(committed > 0, "no events were committed within 90 s\n\(killed)")
                try #require(committed < Int(options[options.firstIndex(of: "--events")! + 1])!)
                return (committed, killed)
            }
            // It finished (or failed) before the kill: start again on a new store.
            attempts.append(killed)
            for suffix in ["", "-journal", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: store + suffix)
            }
        }
        struct NotKilledMidRun: Error, CustomStringConvertible { var description: String }
        throw NotKilledMidRun(
            description:
                "seed could not be killed mid-run in \(attempts.count) tries (it finished first every time; raise eventCount):\n"
                + attempts.map(\.description).joined(separator: "\n")
        )
    }

    /// Checks a store against the uninterrupted reference.
    static func expectEqualsReference(_ store: String) async throws {
        let reference = try await reference.value
        let contents = try await StoreContents.read(store, entities: false)
        #expect(contents.counts == reference.counts)
        #expect(contents.counts[DataContract.eventsPartition] == eventCount)
        let manifest = try #require(contents.manifest)
        #expect(manifest.status == .complete)
        #expect(manifest.contentHash == reference.manifest.contentHash)
        #expect(manifest.options == reference.manifest.options)
        #expect(manifest.eventEntities == eventCount && manifest.speakerEntities == 8)
        #expect(contents.blobs.map(\.name) == reference.blobs.map(\.name))
        #expect(contents.blobs.map(\.contentMD5) == reference.blobs.map(\.contentMD5))
        #expect(contents.blobs.map(\.contentType) == reference.blobs.map(\.contentType))
        #expect(contents.access == .container)
        // Independently of the library: the stored JSON of every entity, byte for byte.
        #expect(try await SQLiteShell.eventsTableDigest(store) == reference.eventsDigest)
        // No duplicate events by (name, location, speaker, date).
        let duplicates = try await SQLiteShell.integer(
            store,
            "SELECT count(*) FROM (SELECT 1 FROM events_view GROUP BY EventName, EventLocation, SpeakerKey, EventDate HAVING count(*) > 1)"
        )
        #expect(duplicates == 0)
    }

    /// "this run      X inserted, Y updated, Z unchanged" → (X, Y, Z).
    static func outcome(_ stdout: String) -> (inserted: Int, updated: Int, unchanged: Int)? {
        guard let line = stdout.split(separator: "\n").first(where: { $0.contains("this run") }) else { return nil }
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return numbers.count == 3 ? (numbers[0], numbers[1], numbers[2]) : nil
    }

    @Test("re-running the same command finishes a killed run", .timeLimit(.minutes(6)))
    func resumeSameCommand() async throws {
        _ = Self.reference  // start the uninterrupted run now, alongside
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let committed = try await Self.interruptedRun(into: store, in: scratch.path).committed

        // The store is not touched in between: the re-run itself must cope with whatever the kill left
        // (a hot rollback journal included).
        let result = try await SeedTool.run(Self.options + ["--store", store], in: scratch.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Finished an interrupted run"), "\(result)")
        #expect(result.stdout.contains("events: Events \(Self.eventCount) · speakers 8"), "\(result)")
        if let outcome = Self.outcome(result.stdout) {
            // What the killed run committed is kept, not written again.
            #expect(outcome.inserted + outcome.unchanged == Self.eventCount + 8, "\(result)")
            #expect(outcome.updated == 0, "\(result)")
            #expect(outcome.unchanged >= committed + 8, "\(committed) events were committed before the kill\n\(result)")
        } else {
            Issue.record("no 'this run' line in the summary\n\(result)")
        }
        try await Self.expectEqualsReference(store)

        // Now it is complete, the same command refuses like any plain run on data.
        let again = try await SeedTool.run(Self.options + ["--store", store], in: scratch.path)
        #expect(again.status == 73, "\(again)")
        #expect(again.stderr.contains("already holds"), "\(again)")
    }

    @Test(
        "an interrupted --reset is finished by the same command, not emptied and drawn again",
        .timeLimit(.minutes(6))
    )
    func resumeReset() async throws {
        _ = Self.reference
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        try await Self.interruptedRun(into: store, in: scratch.path, options: Self.options + ["--reset"])
        let result = try await SeedTool.run(Self.options + ["--reset", "--store", store], in: scratch.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Finished an interrupted run"), "\(result)")
        #expect(result.stdout.contains("seed          5"), "\(result)")
        try await Self.expectEqualsReference(store)
    }

    @Test("re-running without --seed reuses the killed run's seed", .timeLimit(.minutes(6)))
    func resumeWithoutSeed() async throws {
        _ = Self.reference
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        try await Self.interruptedRun(into: store, in: scratch.path)

        let withoutSeed = Array(Self.options.dropFirst(2))
        try #require(!withoutSeed.contains("--seed"))
        let result = try await SeedTool.run(withoutSeed + ["--store", store], in: scratch.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Finished an interrupted run"), "\(result)")
        #expect(result.stdout.contains("seed          5"), "\(result)")
        try await Self.expectEqualsReference(store)
    }

    @Test(
        "after a kill, other options are refused and --dry-run writes nothing; the right command still finishes",
        .timeLimit(.minutes(6))
    )
    func otherOptionsAndDryRun() async throws {
        _ = Self.reference
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        try await Self.interruptedRun(into: store, in: scratch.path)

        // A dry run opens the store only to read it, even with a hot journal left by the kill.
        let dry = try await SeedTool.run(Self.options + ["--dry-run", "--store", store], in: scratch.path)
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stdout.contains("Dry run"), "\(dry)")

        // Let SQLite roll back what the kill left half-written (as any later writer would), so that
        // the store can be read and fingerprinted.
        let recovered = try await SQLiteShell.run(store, "SELECT count(*) FROM entities", readOnly: false)
        try #require(recovered.status == 0, "\(recovered)")
        let manifest = try #require(try await StoreContents.read(store, entities: false).manifest)
        #expect(manifest.status == .inProgress)
        #expect(manifest.options?.seed == 5)
        let fingerprint = try await SQLiteShell.lines(store, ".sha3sum")

        let other = try await SeedTool.run(
            ["--seed", "6", "--events", String(Self.eventCount), "--from", "2026-01-01", "--store", store],
            in: scratch.path
        )
        #expect(other.status == 73, "\(other)")
        #expect(other.stderr.contains("already holds"), "\(other)")
        #expect(
            other.stderr.contains("interrupted"),
            "the refusal should say an interrupted run left the data\n\(other)"
        )
        #expect(try await SQLiteShell.lines(store, ".sha3sum") == fingerprint, "the refused run changed the store")

        let dryAgain = try await SeedTool.run(Self.options + ["--dry-run", "--store", store], in: scratch.path)
        #expect(dryAgain.status == 0, "\(dryAgain)")
        #expect(dryAgain.stdout.contains("Dry run"), "\(dryAgain)")
        #expect(try await SQLiteShell.lines(store, ".sha3sum") == fingerprint, "--dry-run changed the store")

        let resumed = try await SeedTool.run(Self.options + ["--quiet", "--store", store], in: scratch.path)
        #expect(resumed.status == 0, "\(resumed)")
        #expect(resumed.stdout.isEmpty, "\(resumed)")
        try await Self.expectEqualsReference(store)
    }

    @Test(
        "re-running with some options left out (here --seed and --from) finishes a killed run in the past",
        .timeLimit(.minutes(6))
    )
    func resumeWithOptionsLeftOut() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let reference = scratch.file("reference.sqlite")
        // A window wholly before today, so today's default --from would lie after the cutoff.
        let options = [
            "--seed", "11", "--events", String(Self.eventCount), "--from", "2020-01-01", "--cutoff", "2020-12-31",
        ]
        try await Self.interruptedRun(into: store, in: scratch.path, options: options)

        let result = try await SeedTool.run(
            ["--events", String(Self.eventCount), "--cutoff", "2020-12-31", "--store", store],
            in: scratch.path
        )
        try #require(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Finished an interrupted run"), "\(result)")
        #expect(result.stdout.contains("seed          11"), "\(result)")

        let uninterrupted = try await SeedTool.run(options + ["--quiet", "--store", reference], in: scratch.path)
        try #require(uninterrupted.status == 0, "\(uninterrupted)")
        #expect(try await SQLiteShell.eventsTableDigest(store) == SQLiteShell.eventsTableDigest(reference))
        let manifest = try await StoreContents.read(store, entities: false).manifest
        #expect(manifest?.status == .complete)
        #expect(
            manifest?.contentHash == (try await StoreContents.read(reference, entities: false).manifest?.contentHash)
        )
    }

    @Test("Ctrl-C: one line, exit 130, no journal left; the same command finishes the run", .timeLimit(.minutes(6)))
    func interruptedByControlC() async throws {
        _ = Self.reference
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let interrupted = try await Self.interruptedRun(into: store, in: scratch.path, signal: SIGINT).result
        #expect(!interrupted.killedBySignal && interrupted.status == 130, "\(interrupted)")
        #expect(
            interrupted.stderr == "seed: error: \(store): interrupted; run the same command to finish\n",
            "\(interrupted)"
        )
        // The writes under way ended committed, and the store was closed: no journal, WAL or -shm.
        #expect(directoryListing(scratch.path) == ["store.sqlite"])
        let integrity = try await SQLiteShell.lines(store, "PRAGMA integrity_check")
        #expect(integrity == ["ok"])

        let result = try await SeedTool.run(Self.options + ["--store", store], in: scratch.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Finished an interrupted run"), "\(result)")
        try await Self.expectEqualsReference(store)
    }
}
