import Foundation
import SpeakEasyData
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bad options, samples and stores: the right exit status, a message naming the problem, nothing written.
@Suite("seed: bad input")
struct SeedBadInputTests {
    struct BadOptions: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// Each must appear in stderr.
        var mentions: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    @Test(
        "options that cannot be met exit 64 and write nothing",
        arguments: [
            BadOptions(
                arguments: ["--from", "2026-02-01", "--cutoff", "2026-01-31"],
                mentions: ["--cutoff", "before"]
            ),
            BadOptions(
                arguments: ["--from", "2026-02-01T12:00:00Z", "--cutoff", "2026-02-01T11:59:59Z"],
                mentions: ["--cutoff", "before"]
            ),
            BadOptions(arguments: ["--from", "2026-13-45"], mentions: ["--from", "2026-13-45", "out of range"]),
            BadOptions(arguments: ["--cutoff", "tomorrow"], mentions: ["--cutoff", "tomorrow"]),
            BadOptions(arguments: ["--events", "-1"], mentions: ["--events", "0 or more"]),
            BadOptions(arguments: ["--seed", "-5"], mentions: ["--seed", "-5", "invalid"]),
            BadOptions(arguments: ["--events=-1"], mentions: ["--events"]),
            BadOptions(arguments: ["--events", "many"], mentions: ["--events", "many"]),
            BadOptions(arguments: ["--speakers", "0"], mentions: ["--speakers"]),
            BadOptions(arguments: ["--seed", "-5"], mentions: ["--seed"]),
            BadOptions(arguments: ["--seed", "18446744073709551616"], mentions: ["--seed"]),
            BadOptions(arguments: ["--resolution", "fortnight"], mentions: ["--resolution", "fortnight"]),
            BadOptions(arguments: ["--mode", "overwrite"], mentions: ["--mode", "overwrite"]),
            BadOptions(arguments: ["--no-such-option"], mentions: ["--no-such-option"]),
            BadOptions(
                arguments: [
                    "--events", "1000", "--resolution", "day", "--from", "2026-01-01", "--cutoff", "2026-01-02",
                    "--speakers", "1",
                ],
                mentions: ["distinct events possible", "64"]
            ),
            BadOptions(
                arguments: [
                    "--from", "2026-01-01T00:00:30Z", "--cutoff", "2026-01-01T00:00:40Z", "--resolution", "minute",
                ],
                mentions: ["no date"]
            ),
            BadOptions(arguments: ["--speakers", "100000000"], mentions: ["--speakers"]),
            BadOptions(
                arguments: ["--store", "azure"],
                mentions: ["--store", "AZURE_STORAGE_CONNECTION_STRING", "not set"]
            ),
            BadOptions(
                arguments: ["--store", "AccountName=prod;AccountKey=c2VjcmV0!!"],
                mentions: ["--store", "AccountKey", "not a valid key"]
            ),
            BadOptions(
                arguments: ["--store", "DefaultEndpointsProtocol=http;AccountName=prod;AccountKey=c2VjcmV0c2VjcmV0"],
                mentions: ["--store", "plain http", "loopback"]
            ),
            BadOptions(
                arguments: ["--store", "UseDevelopmentStorage=yes"],
                mentions: ["--store", "UseDevelopmentStorage", "must be true"]
            ),
            BadOptions(arguments: ["--store", "dev", "--parallel", "0"], mentions: ["--parallel", "0"]),
        ]
    )
    func usage(_ bad: BadOptions) async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let arguments = (bad.arguments.contains { $0.hasPrefix("--store") } ? [] : ["--store", store]) + bad.arguments
        let result = try await SeedTool.run(arguments, in: scratch.path)
        #expect(result.status == 64, "\(result)")
        #expect(!result.killedBySignal)
        for mention in bad.mentions {
            #expect(result.stderr.contains(mention), "stderr should mention '\(mention)'\n\(result)")
        }
        #expect(!result.stderr.contains("c2VjcmV0"), "no key is shown: \(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(directoryListing(scratch.path).isEmpty, "a failed run left \(directoryListing(scratch.path))")
    }

    @Test("usage errors leave an existing store untouched")
    func usageKeepsStore() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        try #require(
            try await SeedTool.run(["--seed", "1", "--events", "10", "--store", store], in: scratch.path).status == 0
        )
        let dump = try await SQLiteShell.dump(store)
        let result = try await SeedTool.run(
            [
                "--mode", "merge", "--events", "1000", "--resolution", "day", "--from", "2026-01-01", "--cutoff",
                "2026-01-02", "--speakers", "1", "--store", store,
            ],
            in: scratch.path
        )
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("distinct events possible"), "\(result)")
        #expect(try await SQLiteShell.dump(store) == dump)
    }

    // MARK: Samples

    /// Copies the package's samples into `directory` to spoil one part of them.
    static func copySamples(to directory: String) throws -> String {
        let copy = directory + "/samples"
        try FileManager.default.copyItem(atPath: SeedTool.samples, toPath: copy)
        return copy
    }

    @Test("a missing samples directory exits 66 and names it")
    func samplesMissing() async throws {
        let scratch = try Scratch()
        let samples = scratch.file("no-such-samples")
        let store = scratch.file("store.sqlite")
        let result = try await SeedTool.run(["--store", store], in: scratch.path, samples: samples)
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains(samples), "\(result)")
        #expect(!fileExists(store))
    }

    @Test("a missing photo exits 66 and names the file")
    func photoMissing() async throws {
        let scratch = try Scratch()
        let samples = try Self.copySamples(to: scratch.path)
        try FileManager.default.removeItem(atPath: samples + "/photos/MOmar.jpg")
        let store = scratch.file("store.sqlite")
        let result = try await SeedTool.run(["--store", store], in: scratch.path, samples: samples)
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr.contains("MOmar.jpg"), "\(result)")
        #expect(!fileExists(store))
    }

    @Test(
        "a malformed catalog.json exits 65 and names the file",
        arguments: [
            "{ \"speakers\": [", "not json at all", "[]", "{}",
            "{\"speakers\": [], \"eventNames\": [\"a\"], \"locations\": [\"b\"], \"eventDescription\": \"d\", \"bioTemplate\": \"t\", \"firstNames\": [\"f\"], \"lastNames\": [\"l\"], \"titles\": [\"t\"]}",
        ]
    )
    func catalogMalformed(text: String) async throws {
        let scratch = try Scratch()
        let samples = try Self.copySamples(to: scratch.path)
        try Data(text.utf8).write(to: URL(fileURLWithPath: samples + "/catalog.json"))
        let store = scratch.file("store.sqlite")
        let result = try await SeedTool.run(["--store", store], in: scratch.path, samples: samples)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("catalog.json"), "\(result)")
        #expect(!fileExists(store))
    }

    @Test("catalog.json that is not JSON: 65, with the line and column of the fault")
    func catalogNotJSONHasPosition() async throws {
        let scratch = try Scratch()
        let samples = try Self.copySamples(to: scratch.path)
        try Data("{\n  \"speakers\": [\n    }\n".utf8).write(to: URL(fileURLWithPath: samples + "/catalog.json"))
        let result = try await SeedTool.run(["--store", "store.sqlite"], in: scratch.path, samples: samples)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.hasPrefix("seed: error: \(samples)/catalog.json:3:5: not valid JSON"), "\(result)")
    }

    @Test("a missing photo's message has a colon between the speaker and the reason")
    func photoMissingWording() async throws {
        let scratch = try Scratch()
        let samples = try Self.copySamples(to: scratch.path)
        try FileManager.default.removeItem(atPath: samples + "/photos/BTubalinal.jpg")
        let result = try await SeedTool.run(["--store", "store.sqlite"], in: scratch.path, samples: samples)
        #expect(result.status == 66, "\(result)")
        #expect(
            result.stderr
                == "seed: error: \(samples)/photos/BTubalinal.jpg: photo of speakers[0] (Bart Tubalinal): No such file or directory\n",
            "\(result)"
        )
    }

    @Test(
        "a photo that is not an image exits 65 and names the file",
        arguments: ["not a picture\n", "", "\u{FF}\u{D8}"]
    )
    func photoNotAnImage(text: String) async throws {
        let scratch = try Scratch()
        let samples = try Self.copySamples(to: scratch.path)
        try Data(text.utf8).write(to: URL(fileURLWithPath: samples + "/photos/DOrlova.jpg"))
        let store = scratch.file("store.sqlite")
        let result = try await SeedTool.run(["--store", store], in: scratch.path, samples: samples)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("DOrlova.jpg"), "\(result)")
        #expect(!fileExists(store))
    }

    @Test("bad samples leave an existing store untouched, even with --reset")
    func badSamplesKeepStore() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        try #require(
            try await SeedTool.run(["--seed", "1", "--events", "10", "--store", store], in: scratch.path).status == 0
        )
        let dump = try await SQLiteShell.dump(store)
        let samples = try Self.copySamples(to: scratch.path)
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: samples + "/photos/CJones.jpg"))
        let result = try await SeedTool.run(
            ["--reset", "--seed", "2", "--store", store],
            in: scratch.path,
            samples: samples
        )
        #expect(result.status == 65, "\(result)")
        #expect(try await SQLiteShell.dump(store) == dump)
    }

    // MARK: Stores

    @Test("a store path that is a directory is not a storage account: 65, as in every tool")
    func storeIsDirectory() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: false)
        let result = try await SeedTool.run(["--store", store], in: scratch.path)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains(store) && result.stderr.contains("directory"), "\(result)")
        #expect(directoryListing(store).isEmpty)
        #expect(directoryListing(scratch.path) == ["store.sqlite"])
    }

    @Test("a store in a missing directory exits 73 and creates nothing")
    func storeDirectoryMissing() async throws {
        let scratch = try Scratch()
        let store = scratch.file("missing/store.sqlite")
        let result = try await SeedTool.run(["--store", store], in: scratch.path)
        #expect(result.status == 73, "\(result)")
        #expect(result.stderr.contains(store), "\(result)")
        #expect(directoryListing(scratch.path).isEmpty)
    }

    @Test("a store that is a text file exits 65 and is left as it was")
    func storeIsText() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let text = Data("these are my notes, not a database\n".utf8)
        try text.write(to: URL(fileURLWithPath: store))
        let result = try await SeedTool.run(["--store", store], in: scratch.path)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("not an SQLite database"), "\(result)")
        #expect(result.stderr.contains(store), "\(result)")
        #expect(fileBytes(store) == text)
        #expect(directoryListing(scratch.path) == ["store.sqlite"])
    }

    @Test("a store that is another application's SQLite database exits 65 and is left as it was")
    func storeIsOtherDatabase() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        let created = try await SQLiteShell.run(
            store,
            "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine');",
            readOnly: false
        )
        try #require(created.status == 0, "\(created)")
        let bytes = fileBytes(store)
        let result = try await SeedTool.run(["--store", store], in: scratch.path)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains(store), "\(result)")
        #expect(fileBytes(store) == bytes)
    }

    @Test(
        "a read-only store exits 73 and is left as it was",
        .disabled(if: geteuid() == 0, "root ignores file permissions")
    )
    func storeReadOnly() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        try #require(
            try await SeedTool.run(["--seed", "1", "--events", "10", "--store", store], in: scratch.path).status == 0
        )
        let dump = try await SQLiteShell.dump(store)
        try #require(chmod(store, 0o444) == 0)
        let result = try await SeedTool.run(["--mode", "merge", "--seed", "2", "--store", store], in: scratch.path)
        #expect(result.status == 73, "\(result)")
        #expect(result.stderr.contains(store), "\(result)")
        #expect(try await SQLiteShell.dump(store) == dump)
    }

    @Test("a store another process holds locked exits 69 and says so")
    func storeLocked() async throws {
        let scratch = try Scratch()
        let store = scratch.file("store.sqlite")
        try #require(
            try await SeedTool.run(["--seed", "1", "--events", "10", "--store", store], in: scratch.path).status == 0
        )
        let dump = try await SQLiteShell.dump(store)

        // Another connection holds an exclusive lock until told to commit.
        let holder = try Subprocess(
            try SQLiteShell.path(),
            ["-batch", store],
            directory: scratch.path,
            withInput: true
        )
        try holder.write("BEGIN EXCLUSIVE;\nSELECT 'holding';\n")
        let holding = try await holder.waitForOutput(containing: "holding")
        defer {
            holder.closeInput()
            if holder.isRunning { holder.kill(SIGKILL) }
        }
        if !holding {
            let failed = await holder.finish()
            Issue.record("sqlite3 did not take the lock: \(failed)")
            return
        }

        let result = try await SeedTool.run(["--mode", "merge", "--seed", "2", "--store", store], in: scratch.path)
        #expect(result.status == 69, "\(result)")
        #expect(result.stderr.contains("locked"), "\(result)")
        #expect(result.stderr.contains(store), "\(result)")

        try holder.write("COMMIT;\n")
        holder.closeInput()
        let released = await holder.finish()
        #expect(released.status == 0, "\(released)")
        #expect(try await SQLiteShell.dump(store) == dump, "the store changed while locked")

        // Once the lock is gone, the same command works.
        let retry = try await SeedTool.run(["--mode", "merge", "--seed", "2", "--store", store], in: scratch.path)
        #expect(retry.status == 0, "\(retry)")
    }
}
