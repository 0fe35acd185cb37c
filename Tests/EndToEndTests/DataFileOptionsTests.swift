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

    @Test(".tsv is tab-separated both ways: export writes it; export, validate and seed --from-file read it")
    func tsv() async throws {
        let scratch = try Scratch()
        let expected = try await Self.exported(scratch)
        let written = try await BuiltTool.export.run(["all.csv", "--to", "all.tsv"], in: scratch.path)
        #expect(written.status == 0, "\(written)")
        let header = try String(contentsOfFile: scratch.file("all.tsv"), encoding: .utf8).prefix { $0 != "\r\n" }
        #expect(header.hasPrefix("PartitionKey\tRowKey\tTimestamp\t") && !header.contains(","), "\(header)")
        #expect(try await Self.ndjson("all.tsv", in: scratch.path) == expected)
        let validated = try await BuiltTool.validate.run(["all.tsv", "--warnings-as-errors"], in: scratch.path)
        #expect(validated.status == 0, "\(validated)")
        let seeded = try await SeedTool.run(
            ["--from-file", "all.tsv", "--store", "copy.sqlite", "--quiet"],
            in: scratch.path,
            samples: nil
        )
        #expect(seeded.status == 0, "\(seeded)")

        // --delimiter still decides, reading and writing.
        let commas = try await BuiltTool.export.run(
            ["all.tsv", "--delimiter", ",", "--to", "x.json"],
            in: scratch.path
        )
        #expect(commas.status == 65, "\(commas)")
        #expect(commas.stderr.contains("the header looks tab-separated: use --delimiter tab"), "\(commas)")
        // (--delimiter reads CSV input too: the input here is none.)
        let json = try await BuiltTool.export.run(["all.tsv", "--to", "all.json"], in: scratch.path)
        #expect(json.status == 0, "\(json)")
        let semicolons = try await BuiltTool.export.run(
            ["all.json", "--delimiter", ";", "--to", "semi.tsv"],
            in: scratch.path
        )
        #expect(semicolons.status == 0, "\(semicolons)")
        #expect(try String(contentsOfFile: scratch.file("semi.tsv"), encoding: .utf8).hasPrefix("PartitionKey;RowKey;"))
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

    @Test("Excel's Unicode Text (UTF-16, tab-separated, .txt) reads with no option in every tool")
    func excelUnicodeText() async throws {
        let scratch = try Scratch()
        let expected = try await Self.exported(scratch)
        try await Self.python(
            """
            import csv
            with open('all.csv', newline='', encoding='utf-8') as f:
                rows = list(csv.reader(f))
            with open('excel.txt', 'w', newline='', encoding='utf-16') as f:
                csv.writer(f, delimiter='\\t', lineterminator='\\r\\n').writerows(rows)
            """,
            in: scratch.path
        )
        #expect(fileBytes(scratch.file("excel.txt"))?.prefix(2) == Data([0xFF, 0xFE]))
        #expect(try await Self.ndjson("excel.txt", in: scratch.path) == expected)
        let validated = try await BuiltTool.validate.run(["excel.txt", "--warnings-as-errors"], in: scratch.path)
        #expect(validated.status == 0, "\(validated)")
        let seeded = try await SeedTool.run(
            ["--from-file", "excel.txt", "--store", "copy.sqlite", "--quiet"],
            in: scratch.path,
            samples: nil
        )
        #expect(seeded.status == 0, "\(seeded)")
        let back = try await BuiltTool.export.run(["--store", "copy.sqlite", "--to", "copy.ndjson"], in: scratch.path)
        #expect(back.status == 0, "\(back)")
        let copied = try String(contentsOfFile: scratch.file("copy.ndjson"), encoding: .utf8)
        #expect(copied.split(separator: "\n").count == expected.split(separator: "\n").count)
    }

    @Test("Windows-1252 CSV: refused as not UTF-8 with what it looks like, read with --encoding")
    func windows1252() async throws {
        let scratch = try Scratch()
        let csv =
            LoadData.header + "\r\n" + LoadData.speaker(name: "José Müller") + "\r\n"
            + LoadData.event(1, date: "2026-07-01T04:34:00.0000001Z", speakerName: "José Müller") + "\r\n"
        try csv.replacingOccurrences(of: "Builds apps.", with: "Builds “apps” – 5 €").write(
            toFile: scratch.file("utf8.csv"),
            atomically: true,
            encoding: .utf8
        )
        try await Self.python(
            "open('win.csv', 'wb').write(open('utf8.csv', newline='', encoding='utf-8').read().encode('cp1252'))",
            in: scratch.path
        )
        let hint =
            "win.csv:2:50: invalid UTF-8 (byte 0xE9); the file looks like Windows-1252 (Excel's CSV on Windows), where 0xE9 is 'é': read it with --encoding windows-1252"
        for run in [
            try await BuiltTool.validate.run(["win.csv"], in: scratch.path),
            try await BuiltTool.export.run(["win.csv", "--to", "x.json"], in: scratch.path),
            try await SeedTool.run(["--from-file", "win.csv", "--store", "w.sqlite"], in: scratch.path, samples: nil),
        ] {
            #expect(run.status == 65, "\(run)")
            #expect(run.stderr.contains(hint), "\(run)")
        }

        let expected = try await Self.ndjson("utf8.csv", in: scratch.path)
        #expect(expected.contains("Builds “apps” – 5 €"))
        #expect(try await Self.ndjson("win.csv", ["--encoding", "windows-1252"], in: scratch.path) == expected)
        let validated = try await BuiltTool.validate.run(
            ["win.csv", "--encoding", "windows-1252", "--warnings-as-errors"],
            in: scratch.path
        )
        #expect(validated.status == 0, "\(validated)")
        let seeded = try await SeedTool.run(
            ["--from-file", "win.csv", "--encoding", "windows-1252", "--store", "w.sqlite", "--quiet"],
            in: scratch.path,
            samples: nil
        )
        #expect(seeded.status == 0, "\(seeded)")
        let back = try await BuiltTool.export.run(
            ["--store", "w.sqlite", "--partition", "speakers", "--to", "-"],
            in: scratch.path
        )
        #expect(back.stdout.contains("\"Name\":\"José Müller\""), "\(back)")
    }

    @Test("--encoding reads files: with a storage account alone it is a usage error")
    func encodingWithoutFiles() async throws {
        let scratch = try Scratch()
        let runs = [
            try await BuiltTool.export.run(["--encoding", "latin1"], in: scratch.path),
            try await BuiltTool.validate.run(["--encoding", "utf-16"], in: scratch.path),
            try await SeedTool.run(["--encoding", "windows-1252", "--dry-run"], in: scratch.path),
            try await BuiltTool.validate.run(["x.csv", "--encoding", "ebcdic"], in: scratch.path),
        ]
        for run in runs { #expect(run.status == 64, "\(run)") }
        #expect(runs[0].stderr.contains("--encoding reads files; it does not apply to the storage account"))
        #expect(runs[2].stderr.contains("--encoding applies to the files of --from-file"))
    }
}
