import Foundation
import SpeakEasyData
import Testing

/// Two `seed --mode merge` processes on one store at once: each either waits its turn at the store
/// (SQLite's busy timeout) or is refused with exit 75 and says the store is locked, and the store ends
/// with every event of the runs that finished: none lost, none twice.
@Suite("seed: two merges at once", .serialized)
struct ConcurrentSeedTests {
    static let events = "20000"

    static func options(seed: Int) -> [String] { ["--events", events, "--seed", String(seed), "--from", "2026-01-01", "--quiet"] }

    @Test("both merges land (or one is refused clearly and lands when run again), with nothing lost", .timeLimit(.minutes(4)))
    func twoMerges() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let first = try await SeedTool.run(Self.options(seed: 1) + ["--store", store], in: scratch.path)
        try #require(first.status == 0, "\(first)")

        let merges = try [2, 3].map { try SeedTool.start(Self.options(seed: $0) + ["--mode", "merge", "--store", store], in: scratch.path) }
        for (merge, seed) in zip(merges, [2, 3]) {
            let result = await merge.finish()
            if result.status == 75 {
                #expect(result.stderr.contains("locked by another process"), "\(result)")
                let again = try await SeedTool.run(Self.options(seed: seed) + ["--mode", "merge", "--store", store], in: scratch.path)
                #expect(again.status == 0, "\(again)")
            } else {
                #expect(result.status == 0, "\(result)")
            }
        }

        // What each run writes alone, in stores of their own: the merged store holds their union.
        var references: [String] = []
        for seed in [1, 2, 3] {
            let reference = scratch.file("reference-\(seed).sqlite")
            let alone = try await SeedTool.run(Self.options(seed: seed) + ["--store", reference], in: scratch.path)
            try #require(alone.status == 0, "\(alone)")
            references.append(reference)
        }
        let events = "FROM %@entities WHERE table_name = 'events' AND partition_key = 'Events'"
        let union = references.indices.map { "SELECT row_key, properties " + events.replacingOccurrences(of: "%@", with: "r\($0).") }.joined(separator: " UNION ")
        let attach = references.enumerated().map { "ATTACH '\($1)' AS r\($0);" }.joined()
        let expected = try await SQLiteShell.integer(store, attach + "SELECT count(*) FROM (\(union))")
        let stored = try await SQLiteShell.integer(store, "SELECT count(*) " + events.replacingOccurrences(of: "%@", with: ""))
        let missing = try await SQLiteShell.integer(
            store, attach + "SELECT count(*) FROM (\(union) EXCEPT SELECT row_key, properties " + events.replacingOccurrences(of: "%@", with: "main.") + ")")
        #expect(expected > 40_000)
        #expect(stored == expected)
        #expect(missing == 0)

        // The manifest the last run wrote agrees with the table.
        let validated = try await BuiltTool.validate.run(["--store", store], in: scratch.path)
        #expect(validated.status == 0, "\(validated)")
    }
}
