import Foundation
import SpeakEasyData
import Testing

/// Data files as people bring them (issue 48): an output extension export does not know, `.tsv`,
/// CSV from Python's `csv.QUOTE_ALL`, Excel's UTF-16 "Unicode Text" and its Windows-1252 CSV. The
/// files are written by python3, as their users' tools would.
@Suite("data files: extensions, .tsv, quoted cells, encodings")
struct DataFileOptionsTests {
    /// Runs a python3 script in `directory`.
    static func python(_ script: String, in directory: String) async throws {
        let result = try await Subprocess.run("/usr/bin/env", ["python3", "-c", script], directory: directory)
        try #require(result.status == 0, "\(result)")
    }

    /// The seeded store exported as plain CSV, `all.csv`; returns its entities as NDJSON, to compare with.
    static func exported(_ scratch: borrowing Scratch) async throws -> String {
        let store = try await SeedTool.seededStore(scratch)
        let result = try await BuiltTool.export.run(["--store", store, "--to", "all.csv", "--quiet"], in: scratch.path)
        try #require(result.status == 0, "\(result)")
        let expected = try await ndjson("all.csv", in: scratch.path)
        try #require(expected.split(separator: "\n").count == 108)
        return expected
    }

    /// `file` converted to NDJSON by export, with `options`.
    static func ndjson(_ file: String, _ options: [String] = [], in directory: String) async throws -> String {
        let result = try await BuiltTool.export.run(
            [file] + options + ["--format", "ndjson", "--to", "-"],
            in: directory
        )
        #expect(result.status == 0, "\(result)")
        return result.stdout
    }

    @Test("export --to an extension it does not know is refused (64), naming the ones it knows")
    func unknownExtension() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        for name in ["events.xlsx", "events.txt", "events.CSV.bak"] {
            let result = try await BuiltTool.export.run(
                ["--store", store, "--partition", "Events", "--to", name],
                in: scratch.path
            )
            #expect(result.status == 64, "\(result)")
            #expect(
                result.stderr.contains(
                    "export writes no format by the extension '.\(name.split(separator: ".").last!.lowercased())'; it knows .atom/.xml, .json, .ndjson/.jsonl, .csv/.tsv (or give --format)"
                ),
                "\(result)"
            )
            #expect(!fileExists(scratch.file(name)))
        }
        let given = try await BuiltTool.export.run(
            ["--store", store, "--partition", "Events", "--to", "events.txt", "--format", "csv", "--quiet"],
            in: scratch.path
        )
        #expect(given.status == 0, "\(given)")
        let text = try String(contentsOfFile: scratch.file("events.txt"), encoding: .utf8)
        #expect(text.hasPrefix("PartitionKey,RowKey,"), "\(text.prefix(80))")
    }

    @Test("a CSV that quotes every cell (csv.QUOTE_ALL) adds no empty properties")
    func quoteAll() async throws {
        let scratch = try Scratch()
        let expected = try await Self.exported(scratch)
        // As a pandas or csv user saves what they read: speakers and events in one file, every
        // cell quoted, so each row's cells of the other partition are "".
        try await Self.python(
            """
            import csv
            with open('all.csv', newline='', encoding='utf-8') as f:
                rows = list(csv.DictReader(f))
            with open('quoted.csv', 'w', newline='', encoding='utf-8') as f:
                w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), quoting=csv.QUOTE_ALL)
                w.writeheader()
                w.writerows(rows)
            """,
            in: scratch.path
        )
        let text = try String(contentsOfFile: scratch.file("quoted.csv"), encoding: .utf8)
        #expect(text.contains(",\"\","), "the file has quoted empty cells")
        #expect(try await Self.ndjson("quoted.csv", in: scratch.path) == expected)
        let validated = try await BuiltTool.validate.run(["quoted.csv", "--warnings-as-errors"], in: scratch.path)
        #expect(validated.status == 0, "\(validated)")
    }

    @Test("validate and seed warn of a property the contract does not name for its partition")
    func unknownProperty() async throws {
        let scratch = try Scratch()
        let csv =
            LoadData.header + "\r\n" + LoadData.speaker() + "\r\n"
            + LoadData.event(1, date: "2026-07-01T04:34:00.0000001Z") + "\r\n"
        // The speaker's empty event cells quoted, as a tool that quotes empty strings writes them.
        try csv.replacingOccurrences(of: ".jpg,,,,,,", with: ".jpg,,\"\",,,,").write(
            toFile: scratch.file("quoted-empty.csv"),
            atomically: true,
            encoding: .utf8
        )
        let validated = try await BuiltTool.validate.run(["quoted-empty.csv"], in: scratch.path)
        #expect(validated.status == 0, "a warning\n\(validated)")
        #expect(
            validated.stdout.contains(
                "speaker has EventName, which the contract does not name for speakers: the app never reads it (an empty string: in plain CSV a quoted empty cell, \"\", is one)"
            ),
            "\(validated)"
        )
        #expect(validated.stdout.contains("contract.unknown-property"), "\(validated)")
        let strict = try await BuiltTool.validate.run(["quoted-empty.csv", "--warnings-as-errors"], in: scratch.path)
        #expect(strict.status == 1, "\(strict)")
        let seeded = try await SeedTool.run(
            ["--from-file", "quoted-empty.csv", "--store", "s.sqlite"],
            in: scratch.path,
            samples: nil
        )
        #expect(seeded.status == 0, "\(seeded)")
        #expect(seeded.stderr.contains("[contract.unknown-property]"), "\(seeded)")
    }

    @Test("the seeded data breaks no rule, the new one included")
    func seededDataIsClean() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let result = try await BuiltTool.validate.run(["--store", store, "--warnings-as-errors"], in: scratch.path)
        #expect(result.status == 0, "\(result)")
    }
}
