import Foundation
import SpeakEasyData
import Testing

/// `export`, end to end: the built executable converts files and reads a seeded store.
@Suite("export")
struct ExportTests {
    static func entities(in path: String) throws -> [Entity] {
        var opened = try EntityFiles.open(path)
        var all: [Entity] = []
        while let entity = try opened.reader.next() { all.append(entity) }
        return all
    }

    @Test("the store's events to CSV, sorted by EventDate as the app shows them")
    func storeToSortedCSV() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let result = try await BuiltTool.export.run(
            ["--store", store, "--partition", "Events", "--sort", "EventDate", "--to", "events.csv"],
            in: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("wrote 100 entities"), "\(result)")
        let text = try String(contentsOfFile: scratch.file("events.csv"), encoding: .utf8)
        let lines = text.split(separator: "\r\n")
        #expect(
            lines.first
                == "PartitionKey,RowKey,Timestamp,EventDate,EventName,EventLocation,EventDescription,SpeakerKey,SpeakerName"
        )
        #expect(lines.count == 101)
        let events = try Self.entities(in: scratch.file("events.csv"))
        let dates = events.compactMap { entity -> EdmDateTime? in
            if case .dateTime(let date)? = entity["EventDate"] { date } else { nil }
        }
        #expect(dates.count == 100)
        #expect(dates == dates.sorted())
        #expect(Set(events.map(\.partitionKey)) == ["Events"])
        #expect(!fileExists(scratch.file(".events.csv.partial")), "no temporary file left behind")
    }

    @Test(
        "every format to every other through the executable keeps the store's entities",
        arguments: ["atom", "json", "ndjson", "csv"]
    )
    func chain(format: String) async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let first = try await BuiltTool.export.run(
            ["--store", store, "--to", "all.json", "--metadata", "full"],
            in: scratch.path
        )
        #expect(first.status == 0, "\(first)")
        let typed = format == "csv" ? ["--typed"] : []
        let second = try await BuiltTool.export.run(
            ["all.json", "--format", format, "--to", "all.out"] + typed,
            in: scratch.path
        )
        #expect(second.status == 0, "\(second)")
        // Back to JSON, read from stdin with the format given, written to stdout.
        let third = try await BuiltTool.export.run(
            ["--from-format", format, "all.out", "--format", "ndjson"],
            in: scratch.path
        )
        #expect(third.status == 0, "\(third)")
        try third.stdout.write(toFile: scratch.file("back.ndjson"), atomically: true, encoding: .utf8)
        let original = try Self.entities(in: scratch.file("all.json"))
        let back = try Self.entities(in: scratch.file("back.ndjson"))
        #expect(original.count == 108)
        #expect(back.map(\.content) == original.map(\.content))
        #expect(back.map(\.timestamp) == original.map(\.timestamp))
    }

    @Test("--columns picks and orders the properties")
    func columns() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let result = try await BuiltTool.export.run(
            ["--store", store, "--partition", "speakers", "--columns", "RowKey,Name,Title", "--format", "csv"],
            in: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\r\n")
        #expect(
            lines.first == "PartitionKey,RowKey,Name,Title",
            "the keys are always written, so the CSV can be read back"
        )
        #expect(lines.count == 9)
    }

    @Test("malformed input exits 65 naming file, line and column, and leaves no output file")
    func malformedInput() async throws {
        let scratch = try Scratch()
        try
            "{\"value\":[\n{\"PartitionKey\":\"p\",\"RowKey\":\"1\"},\n{\"PartitionKey\":\"p\",\"RowKey\":\"2\",\"N@odata.type\":\"Edm.Int32\",\"N\":1.5}]}"
            .write(toFile: scratch.file("bad.json"), atomically: true, encoding: .utf8)
        let result = try await BuiltTool.export.run(["bad.json", "--to", "out.csv"], in: scratch.path)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("bad.json:3:"), "\(result)")
        #expect(result.stderr.contains("Edm.Int32"), "\(result)")
        #expect(directoryListing(scratch.path) == ["bad.json"], "no output or temporary file may remain")
    }

    @Test("a missing input is 66; a missing store is 66; bad options are 64")
    func exitCodes() async throws {
        let scratch = try Scratch()
        let missing = try await BuiltTool.export.run(["nope.json"], in: scratch.path)
        #expect(missing.status == 66, "\(missing)")
        let noStore = try await BuiltTool.export.run(["--store", "none.sqlite"], in: scratch.path)
        #expect(noStore.status == 66, "\(noStore)")
        #expect(!fileExists(scratch.file("none.sqlite")), "reading must not create a store")
        let usage = try await BuiltTool.export.run(["--format", "xlsx"], in: scratch.path)
        #expect(usage.status == 64, "\(usage)")
        let delimiter = try await BuiltTool.export.run(["--delimiter", ";;"], in: scratch.path)
        #expect(delimiter.status == 64, "\(delimiter)")
    }

    @Test("--help teaches with examples")
    func help() async throws {
        let scratch = try Scratch()
        let result = try await BuiltTool.export.run(["--help"], in: scratch.path)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Examples:"))
        #expect(result.stdout.contains("--sort"))
        #expect(result.stdout.contains("memory"))
    }
}

/// `seed --from-file`, end to end.
@Suite("seed --from-file")
struct SeedFromFileTests {
    @Test("loads an export into a fresh store; a second plain run is refused; merge changes nothing")
    func load() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let exported = try await BuiltTool.export.run(["--store", store, "--to", "all.atom"], in: scratch.path)
        #expect(exported.status == 0, "\(exported)")
        let copy = scratch.file("copy.sqlite")
        let loaded = try await SeedTool.run(
            ["--from-file", "all.atom", "--store", copy],
            in: scratch.path,
            samples: nil
        )
        #expect(loaded.status == 0, "\(loaded)")
        #expect(loaded.stdout.contains("108 inserted"), "\(loaded)")
        let original = try await StoreContents.read(store)
        let loadedContents = try await StoreContents.read(copy)
        #expect(loadedContents.counts == original.counts)
        #expect(
            loadedContents.manifest?.contentHash == original.manifest?.contentHash,
            "same entities, same content hash"
        )
        #expect(loadedContents.blobs.isEmpty, "photos are not invented")

        let again = try await SeedTool.run(
            ["--from-file", "all.atom", "--store", copy],
            in: scratch.path,
            samples: nil
        )
        #expect(again.status == 73, "\(again)")
        let merge = try await SeedTool.run(
            ["--from-file", "all.atom", "--store", copy, "--mode", "merge"],
            in: scratch.path,
            samples: nil
        )
        #expect(merge.status == 0, "\(merge)")
        #expect(merge.stdout.contains("0 inserted, 0 updated, 108 unchanged"), "\(merge)")
    }

    @Test("bad input anywhere writes nothing: the files are checked before the store is touched")
    func badInputWritesNothing() async throws {
        let scratch = try Scratch()
        try "{\"PartitionKey\":\"Events\",\"RowKey\":\"1\"}\n{\"PartitionKey\":\"Events\",\"RowKey\":\"1\"}\n".write(
            toFile: scratch.file("dup.ndjson"),
            atomically: true,
            encoding: .utf8
        )
        let duplicate = try await SeedTool.run(
            ["--from-file", "dup.ndjson", "--store", "s.sqlite"],
            in: scratch.path,
            samples: nil
        )
        #expect(duplicate.status == 65, "\(duplicate)")
        #expect(duplicate.stderr.contains("dup.ndjson:2"), "\(duplicate)")
        #expect(!fileExists(scratch.file("s.sqlite")))
        let generatorOption = try await SeedTool.run(
            ["--from-file", "dup.ndjson", "--events", "5"],
            in: scratch.path,
            samples: nil
        )
        #expect(generatorOption.status == 64, "\(generatorOption)")
    }
}

/// CSV columns come from the first entity; a later entity with more properties needs the header rewritten.
@Suite("export: CSV with properties that vary")
struct ExportCSVHeaderTests {
    static let mixed = """
        {"PartitionKey":"speakers","RowKey":"a","Name":"Ada"}
        {"PartitionKey":"Events","RowKey":"b","EventName":"Mobile Mondays"}

        """

    @Test("to a file, the header is completed and short rows padded")
    func file() async throws {
        let scratch = try Scratch()
        try Self.mixed.write(toFile: scratch.file("mixed.ndjson"), atomically: true, encoding: .utf8)
        let result = try await BuiltTool.export.run(["mixed.ndjson", "--to", "mixed.csv"], in: scratch.path)
        #expect(result.status == 0, "\(result)")
        let text = try String(contentsOfFile: scratch.file("mixed.csv"), encoding: .utf8)
        #expect(text == "PartitionKey,RowKey,Name,EventName\r\nspeakers,a,Ada,\r\nEvents,b,,Mobile Mondays\r\n")
        #expect(directoryListing(scratch.path) == ["mixed.csv", "mixed.ndjson"])
    }

    @Test("to stdout, the header is complete too: every property of every entity, nothing left behind")
    func stdout() async throws {
        let scratch = try Scratch()
        try Self.mixed.write(toFile: scratch.file("mixed.ndjson"), atomically: true, encoding: .utf8)
        let spools = { try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/tmp") }
        try FileManager.default.createDirectory(atPath: scratch.path + "/tmp", withIntermediateDirectories: false)
        let result = try await BuiltTool.export.run(
            ["mixed.ndjson", "--format", "csv"],
            in: scratch.path,
            environment: ["TMPDIR": scratch.path + "/tmp"]
        )
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout == "PartitionKey,RowKey,Name,EventName\r\nspeakers,a,Ada,\r\nEvents,b,,Mobile Mondays\r\n"
        )
        let left = try spools()
        #expect(left.isEmpty, "the spool is removed: \(left)")
        let chosen = try await BuiltTool.export.run(
            ["mixed.ndjson", "--format", "csv", "--columns", "Name,EventName"],
            in: scratch.path
        )
        #expect(chosen.status == 0, "\(chosen)")
        #expect(
            chosen.stdout == "PartitionKey,RowKey,Name,EventName\r\nspeakers,a,Ada,\r\nEvents,b,,Mobile Mondays\r\n"
        )
    }

    @Test("a whole seeded table to CSV on stdout: the same bytes as --to all.csv")
    func wholeTable() async throws {
        let scratch = try Scratch()
        let seeded = try await SeedTool.run(["--events", "300", "--store", "s.sqlite"], in: scratch.path)
        try #require(seeded.status == 0, "\(seeded)")
        let piped = try await BuiltTool.export.run(["--store", "s.sqlite", "--format", "csv"], in: scratch.path)
        #expect(piped.status == 0, "\(piped)")
        let file = try await BuiltTool.export.run(["--store", "s.sqlite", "--to", "all.csv"], in: scratch.path)
        #expect(file.status == 0, "\(file)")
        let written = try String(contentsOfFile: scratch.file("all.csv"), encoding: .utf8)
        #expect(piped.stdout == written)
        #expect(piped.stdout.hasPrefix("PartitionKey,RowKey,"), "\(piped.stdout.prefix(200))")
    }
}

@Suite("export: interrupted")
struct ExportInterruptTests {
    /// Ctrl-C or `kill` mid-run: the temporary file goes, the target never appears, and the tool
    /// dies of the signal as the shell expects.
    @Test("SIGINT or SIGTERM mid-run removes the partial output", arguments: [SIGINT, SIGTERM])
    func interrupted(signal: Int32) async throws {
        let scratch = try Scratch()
        let path = try #require(try? BuiltTool.export.executable.get())
        let child = try Subprocess(
            path,
            ["-", "--from-format", "csv", "--to", "out.json"],
            directory: scratch.path,
            withInput: true
        )
        try child.write("PartitionKey,RowKey,Name\nspeakers,a,Ada\n")
        // Wait for the temporary file: the run is under way, holding stdin open.
        var partial = false
        for _ in 0..<200 where !partial {
            partial = directoryListing(scratch.path).contains { $0.hasPrefix(".out.json.partial-") }
            if !partial { try await Task.sleep(nanoseconds: 50_000_000) }
        }
        #expect(partial, "export never created its temporary file")
        child.kill(signal)
        let result = await child.finish()
        #expect(result.killedBySignal && result.status == signal, "\(result)")
        #expect(directoryListing(scratch.path).isEmpty, "\(directoryListing(scratch.path))")
    }
}
