import Foundation
import SpeakEasyData
import Testing

/// `seed` needs no files beside it: its samples are built in (`Sources/BuiltInSamples`), and a
/// user's own catalog, in `./samples` or given with `--samples`, comes first.
@Suite("seed: the built-in samples")
struct BuiltInSamplesEndToEndTests {
    @Test("a copy of the seed executable alone in an empty directory seeds there")
    func copiedExecutable() async throws {
        let scratch = try Scratch()
        let copy = scratch.file("seed")
        try FileManager.default.copyItem(atPath: try SeedTool.path(), toPath: copy)
        #expect(directoryListing(scratch.path) == ["seed"])
        let result = try await Subprocess.run(
            copy,
            ["--events", "10", "--from", "2026-01-01", "--store", "t.sqlite"],
            directory: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("events: Events 10 · speakers 8"), "\(result)")

        let contents = try await StoreContents.read(scratch.file("t.sqlite"))
        #expect(contents.counts == [DataContract.speakersPartition: 8, DataContract.eventsPartition: 10])
        #expect(contents.blobs.count == 8)
        // The built-in copy is the repository's samples/: the manifest records the same fingerprint.
        let expected = try SampleCatalog(directory: SeedTool.samples).fingerprint
        #expect(contents.manifest?.samplesHash == expected)
    }

    @Test("./samples holding a catalog comes before the built-in copy, and --samples before both")
    func precedence() async throws {
        let scratch = try Scratch()
        // A user's own catalog in ./samples: the samples with one event name changed.
        let local = scratch.file("samples")
        try FileManager.default.copyItem(atPath: SeedTool.samples, toPath: local)
        let catalogPath = local + "/catalog.json"
        let original = try String(contentsOfFile: catalogPath, encoding: .utf8)
        try #require(original.contains("\"Mobile Mondays\""))
        try original.replacingOccurrences(of: "\"Mobile Mondays\"", with: "\"Mobile Tuesdays\"").write(
            toFile: catalogPath,
            atomically: true,
            encoding: .utf8
        )
        let localFingerprint = try SampleCatalog(directory: local).fingerprint

        let fromLocal = try await SeedTool.run(
            ["--events", "50", "--from", "2026-01-01", "--store", "local.sqlite", "--quiet"],
            in: scratch.path,
            samples: nil
        )
        #expect(fromLocal.status == 0, "\(fromLocal)")
        let localContents = try await StoreContents.read(scratch.file("local.sqlite"))
        #expect(localContents.manifest?.samplesHash == localFingerprint)
        #expect(localContents.events.contains { $0.string("EventName") == "Mobile Tuesdays" })
        #expect(!localContents.events.contains { $0.string("EventName") == "Mobile Mondays" })

        let given = try await SeedTool.run(
            ["--events", "10", "--from", "2026-01-01", "--store", "given.sqlite", "--quiet"],
            in: scratch.path
        )
        #expect(given.status == 0, "\(given)")
        let givenContents = try await StoreContents.read(scratch.file("given.sqlite"), entities: false)
        #expect(givenContents.manifest?.samplesHash == (try SampleCatalog(directory: SeedTool.samples).fingerprint))
    }
}
