import Foundation
import SpeakEasyData
import Testing

/// What `seed` does with a store that already holds data: refuse, merge, replace, reset, dry run.
@Suite("seed: a store that holds data")
struct SeedModeTests {
    /// What every run here adds: the events and dates ``SeedTool/seededStore(_:seed:name:)`` seeds.
    static let base = ["--events", "100", "--from", "2026-01-01"]

    @Test(
        "a plain run refuses a store that holds data and changes nothing",
        arguments: [[], ["--seed", "42"], ["--seed", "43"], ["--mode", "fresh"]]
    )
    func freshRefusesData(extra: [String]) async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch, seed: 42)
        let dump = try await SQLiteShell.dump(store)
        let before = try await StoreContents.read(store)

        let result = try await SeedTool.run(Self.base + extra + ["--store", store], in: scratch.path)
        #expect(result.status == 73, "\(result)")
        // The store first, as every error names its file or store.
        #expect(result.stderr.hasPrefix("seed: error: \(store): table 'events' already holds"), "\(result)")
        #expect(
            result.stderr.contains("--mode merge") || result.stderr.contains("--reset"),
            "the refusal should say how to proceed\n\(result)"
        )
        #expect(result.stdout.isEmpty, "\(result)")

        let after = try await StoreContents.read(store)
        #expect(after.entities == before.entities, "entities (or their Timestamps) changed")
        #expect(after.blobs == before.blobs)
        #expect(after.manifest == before.manifest)
        #expect(try await SQLiteShell.dump(store) == dump, "the refused run changed the store")
    }

    @Test("--mode merge/replace with the same seed changes nothing", arguments: ["merge", "replace"])
    func upsertSameSeed(mode: String) async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch, seed: 42)
        let before = try await StoreContents.read(store)

        let result = try await SeedTool.run(
            Self.base + ["--seed", "42", "--mode", mode, "--store", store],
            in: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("0 inserted, 0 updated, 108 unchanged"), "\(result)")
        #expect(result.stdout.contains("events: Events 100 · speakers 8"), "\(result)")

        let after = try await StoreContents.read(store)
        #expect(after.content == before.content)
        #expect(after.stamps == before.stamps, "unchanged entities got new Timestamps/ETags")
        #expect(after.blobs == before.blobs, "unchanged photos were rewritten")
        #expect(after.access == .container)
        let manifest = try #require(after.manifest)
        #expect(manifest.status == .complete)
        #expect(manifest.contentHash == before.manifest?.contentHash)
        #expect(manifest.eventEntities == 100 && manifest.speakerEntities == 8)
    }

    @Test("--mode merge with another seed adds its events beside the old ones; the same people are not added twice")
    func mergeAnotherSeed() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch, seed: 42)
        let reference = try await SeedTool.seededStore(scratch, seed: 43, name: "reference.sqlite")
        let before = try await StoreContents.read(store)

        let result = try await SeedTool.run(
            Self.base + ["--seed", "43", "--mode", "merge", "--store", store],
            in: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("100 inserted, 0 updated, 8 unchanged"), "\(result)")

        let after = try await StoreContents.read(store)
        let expected = Set(before.content).union(try await StoreContents.read(reference).content)
        #expect(Set(after.content) == expected)
        #expect(after.counts == [DataContract.speakersPartition: 8, DataContract.eventsPartition: 200])
        // The manifest describes the whole table, not only this run's part of it.
        var hash = ContentHash()
        for entity in after.content { hash.add(entity) }
        #expect(after.manifest?.contentHash == hash.description)
        #expect(after.manifest?.eventEntities == 200)
    }

    @Test("--reset --seed 7 leaves exactly what a fresh seed-7 store holds")
    func reset() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch, seed: 42)
        let reference = try await SeedTool.seededStore(scratch, seed: 7, name: "reference.sqlite")

        let result = try await SeedTool.run(Self.base + ["--reset", "--seed", "7", "--store", store], in: scratch.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("seed          7"), "\(result)")

        let after = try await StoreContents.read(store)
        let expected = try await StoreContents.read(reference)
        #expect(after.content == expected.content)
        #expect(after.blobs.map(\.name) == expected.blobs.map(\.name))
        #expect(after.blobs.map(\.contentMD5) == expected.blobs.map(\.contentMD5))
        #expect(after.access == .container)
        #expect(after.manifest?.contentHash == expected.manifest?.contentHash)
        #expect(after.manifest?.status == .complete)
        #expect(after.manifest?.options?.seed == 7)
        #expect(try await SQLiteShell.eventsTableDigest(store) == SQLiteShell.eventsTableDigest(reference))
    }

    @Test("--dry-run without a store reports and creates nothing")
    func dryRunWithoutStore() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let result = try await SeedTool.run(
            Self.base + ["--seed", "42", "--dry-run", "--store", store],
            in: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Dry run"), "\(result)")
        #expect(result.stdout.contains("events: Events 100 · speakers 8"), "\(result)")
        #expect(!fileExists(store), "--dry-run created the store")
        #expect(directoryListing(scratch.path).isEmpty, "--dry-run left files: \(directoryListing(scratch.path))")
    }

    @Test("--dry-run prints the hash a real run stores")
    func dryRunHashMatches() async throws {
        let scratch = try Scratch()
        let dry = try await SeedTool.run(
            Self.base + ["--seed", "42", "--dry-run", "--store", scratch.file("none.sqlite")],
            in: scratch.path
        )
        let store = try await SeedTool.seededStore(scratch, seed: 42)
        let hash = try #require(try await StoreContents.read(store).manifest?.contentHash)
        #expect(dry.stdout.contains(hash), "dry run and real run disagree\n\(dry)")
    }

    @Test(
        "--dry-run on a store that holds data writes nothing",
        arguments: [
            ["--mode", "merge"], ["--mode", "replace"], ["--reset"], ["--reset", "--seed", "99", "--events", "500"],
        ]
    )
    func dryRunWithStore(extra: [String]) async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch, seed: 42)
        let dump = try await SQLiteShell.dump(store)
        let listing = directoryListing(scratch.path)

        let arguments =
            ["--seed", "42", "--events", "100", "--from", "2026-01-01"] + extra + ["--dry-run", "--store", store]
        let result = try await SeedTool.run(arguments, in: scratch.path)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Dry run"), "\(result)")
        #expect(try await SQLiteShell.dump(store) == dump, "--dry-run changed the store\n\(result)")
        #expect(directoryListing(scratch.path) == listing, "--dry-run left files\n\(result)")
    }

    @Test("a plain --dry-run on a store that holds data says a real run would be refused, and writes nothing")
    func dryRunFreshOnData() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch, seed: 42)
        let dump = try await SQLiteShell.dump(store)

        let result = try await SeedTool.run(
            Self.base + ["--seed", "42", "--dry-run", "--store", store],
            in: scratch.path
        )
        #expect(result.status == 73, "\(result)")
        #expect(result.stderr.contains("already holds"), "\(result)")
        #expect(try await SQLiteShell.dump(store) == dump, "--dry-run changed the store\n\(result)")
    }
}
