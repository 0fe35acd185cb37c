import Foundation
import Testing

/// Every tool meets the same fault with the same exit status and the same words, in one format:
/// `tool: error: …` for argument errors (with a usage hint) and run-time errors alike.
@Suite("one voice for errors")
struct OneVoiceTests {
    static let tools = ["seed", "export", "validate"]

    /// Runs a tool; seed gets the package's samples so that only the fault under test can fail it.
    static func run(
        _ tool: String,
        _ arguments: [String],
        in directory: String,
        environment: [String: String] = [:]
    ) async throws -> ProcessResult {
        tool == "seed"
            ? try await SeedTool.run(arguments, in: directory, environment: environment)
            : try await BuiltTool(tool).run(arguments, in: directory, environment: environment)
    }

    /// The stores that are not storage accounts, as each test makes them.
    enum NotAStore: String, CaseIterable {
        case directory, text, otherDatabase, fifo

        var why: String {
            switch self {
            case .directory: "it is a directory"
            case .fifo: "it is not a regular file"
            case .text: "not an SQLite database"
            case .otherDatabase: "an SQLite database of something else"
            }
        }

        func make(_ path: String) async throws {
            switch self {
            case .directory: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .text: try "my notes\n".write(toFile: path, atomically: true, encoding: .utf8)
            // validate once waited in open() for a writer to the FIFO.
            case .fifo: try #require(mkfifo(path, 0o600) == 0)
            case .otherDatabase:
                let made = try await SQLiteShell.run(path, "CREATE TABLE notes (text TEXT)", readOnly: false)
                try #require(made.status == 0, "\(made)")
            }
        }
    }

    @Test("a --store that is not a storage account: 65 and one wording in every tool", arguments: NotAStore.allCases)
    func notAStore(_ fault: NotAStore) async throws {
        let scratch = try Scratch()
        try await fault.make(scratch.file("store.sqlite"))
        for tool in Self.tools {
            let result = try await Self.run(tool, ["--store", "store.sqlite"], in: scratch.path)
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr == "\(tool): error: store.sqlite: not a storage account: \(fault.why)\n", "\(result)")
        }
    }

    @Test("an empty or missing store to read: 66 and one wording in export and validate")
    func nothingToRead() async throws {
        let scratch = try Scratch()
        FileManager.default.createFile(atPath: scratch.file("empty.sqlite"), contents: Data())
        for tool in ["export", "validate"] {
            let empty = try await Self.run(tool, ["--store", "empty.sqlite"], in: scratch.path)
            #expect(empty.status == 66, "\(empty)")
            #expect(
                empty.stderr
                    == "\(tool): error: empty.sqlite: no storage account here (an empty file); run seed first, or name one with --store\n",
                "\(empty)"
            )
            let missing = try await Self.run(tool, ["--store", "gone/none.sqlite"], in: scratch.path)
            #expect(missing.status == 66, "\(missing)")
            #expect(
                missing.stderr
                    == "\(tool): error: gone/none.sqlite: no storage account here; run seed first, or name one with --store\n",
                "\(missing)"
            )
        }
        #expect(directoryListing(scratch.path) == ["empty.sqlite"], "reading creates nothing")
        #expect(fileBytes(scratch.file("empty.sqlite"))?.isEmpty == true)
    }

    @Test("an output in a directory that does not exist: 73 and one wording in every tool")
    func missingDirectory() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let runs: [(tool: String, arguments: [String], output: String)] = [
            ("seed", ["--store", "gone/new.sqlite"], "gone/new.sqlite"),
            ("export", ["--store", store, "--to", "gone/all.json"], "gone/all.json"),
            ("validate", ["--store", store, "--output", "gone/report.txt"], "gone/report.txt"),
        ]
        for run in runs {
            let result = try await Self.run(run.tool, run.arguments, in: scratch.path)
            #expect(result.status == 73, "\(result)")
            #expect(
                result.stderr == "\(run.tool): error: \(run.output): cannot create it: directory gone does not exist\n",
                "\(result)"
            )
        }
        #expect(!fileExists(scratch.file("gone")))
    }

    @Test("argument errors: 64, `tool: error:` and a usage hint, the same words for the same fault")
    func usage() async throws {
        let scratch = try Scratch()
        let faults: [(tool: String, arguments: [String], message: String)] = [
            (
                "seed", ["--from", "2026-02-01", "--cutoff", "2026-01-01"],
                "--cutoff 2026-01-01T23:59:59.9999999Z is before --from 2026-02-01T00:00:00.0000000Z"
            ),
            (
                "validate", ["--from", "2026-02-01", "--cutoff", "2026-01-01"],
                "--cutoff 2026-01-01T23:59:59.9999999Z is before --from 2026-02-01T00:00:00.0000000Z"
            ),
            ("validate", ["--max-errors", "-1"], "--max-errors must be at least 1, not -1"),
            ("validate", ["a.json", "--store", "x.sqlite"], "give either files or --store, not both"),
            ("validate", ["good.json", "--delimiter", "tab"], "--delimiter reads CSV files, and good.json is not CSV"),
            (
                "validate", ["a.json", "b.atom", "--delimiter", ";"],
                "--delimiter reads CSV files, and none of a.json, b.atom is CSV"
            ),
            ("export", ["a.json", "--store", "x.sqlite"], "give either files or --store, not both"),
            ("seed", ["--nope"], "Unknown option '--nope'"),
            ("export", ["--nope"], "Unknown option '--nope'"),
            ("validate", ["--nope"], "Unknown option '--nope'"),
        ]
        for fault in faults {
            let result = try await Self.run(fault.tool, fault.arguments, in: scratch.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.hasPrefix("\(fault.tool): error: \(fault.message)"), "\(result)")
            #expect(result.stderr.contains("\nUsage: \(fault.tool) "), "\(result)")
            #expect(result.stderr.hasSuffix("See '\(fault.tool) --help' for more information.\n"), "\(result)")
        }
        // The same window through the generator's default --from (today): the same words.
        let defaulted = try await Self.run("seed", ["--cutoff", "2020-01-01", "--dry-run"], in: scratch.path)
        #expect(defaulted.status == 64, "\(defaulted)")
        #expect(
            defaulted.stderr.hasPrefix("seed: error: --cutoff 2020-01-01T23:59:59.9999999Z is before --from "),
            "\(defaulted)"
        )
    }

    @Test("usage errors found while running: 64 with the Usage line and the pointer to --help, as a parse error")
    func runTimeUsage() async throws {
        let scratch = try Scratch()
        try #"{"PartitionKey":"Events","RowKey":"a","EventName":"Talk"}"#.write(
            toFile: scratch.file("events.ndjson"),
            atomically: true,
            encoding: .utf8
        )
        let faults: [(tool: String, arguments: [String], mentions: String)] = [
            ("seed", ["--speakers", "100000000", "--dry-run"], "--speakers"),
            ("seed", ["--from", "1600-01-01", "--dry-run"], "1601"),
            ("seed", ["--events", "9223372036854775807", "--dry-run"], "events"),
            ("export", ["events.ndjson", "--sort", "NoSuchProp"], "--sort NoSuchProp: no property"),
            ("export", ["events.ndjson", "--to", "events.xlsx"], "events.xlsx"),
        ]
        for fault in faults {
            let result = try await Self.run(fault.tool, fault.arguments, in: scratch.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.hasPrefix("\(fault.tool): error: "), "\(result)")
            #expect(result.stderr.contains(fault.mentions), "\(result)")
            #expect(result.stderr.contains("\nUsage: \(fault.tool) "), "\(result)")
            #expect(result.stderr.hasSuffix("See '\(fault.tool) --help' for more information.\n"), "\(result)")
        }
    }

    @Test("a --store that names no account (empty, a bare URL): 64 saying what --store takes, in every tool")
    func storeValues() async throws {
        let scratch = try Scratch()
        for value in ["", "https://acct.table.core.windows.net"] {
            for tool in Self.tools + ["serve"] {
                let result = try await Self.run(tool, ["--store", value], in: scratch.path)
                #expect(result.status == 64, "\(result)")
                #expect(
                    result.stderr.hasPrefix(
                        "\(tool): error: --store '\(value)' is not a storage account: give a local account file, 'azure', 'dev' or a connection string"
                    ),
                    "\(result)"
                )
            }
        }
        #expect(directoryListing(scratch.path).isEmpty, "nothing created: \(directoryListing(scratch.path))")
    }

    @Test(
        "an input file that cannot be opened (no permission): 66, as sysexits says, not 74",
        .enabled(
            if: !runningAsRoot || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "root reads any file; setpriv drops to nobody"
        )
    )
    func unreadableInput() async throws {
        let scratch = try Scratch()
        try "PartitionKey,RowKey,Name\nspeakers,a,Ada\n".write(
            toFile: scratch.file("locked.csv"),
            atomically: true,
            encoding: .utf8
        )
        chmod(scratch.file("locked.csv"), 0)
        chmod(scratch.path, 0o755)
        let runs: [(tool: String, arguments: [String])] = [
            ("export", ["locked.csv"]), ("validate", ["locked.csv"]),
            ("seed", ["--from-file", "locked.csv", "--dry-run"]),
        ]
        for run in runs {
            let result = try await Self.runAsNobody(run.tool, run.arguments, in: scratch.path)
            #expect(result.status == 66, "\(result)")
            #expect(result.stderr.hasPrefix("\(run.tool): error: locked.csv"), "\(result)")
            #expect(result.stderr.contains("Permission denied"), "\(result)")
        }
    }

    @Test(
        "a store the user may not read (mode 600, another owner): 66 'Permission denied' in every tool",
        .enabled(
            if: !runningAsRoot || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "root reads any file; setpriv drops to nobody"
        )
    )
    func unreadableStore() async throws {
        let scratch = try Scratch()
        let seeded = try await SeedTool.run(["--events", "5", "--store", "noperm.sqlite"], in: scratch.path)
        try #require(seeded.status == 0, "\(seeded)")
        chmod(scratch.file("noperm.sqlite"), 0o600)
        chmod(scratch.path, 0o777)
        let runs: [(tool: String, arguments: [String])] = [
            ("validate", ["--store", "noperm.sqlite"]), ("export", ["--store", "noperm.sqlite", "--to", "out.json"]),
            ("seed", ["--store", "noperm.sqlite", "--mode", "merge", "--events", "1"]),
            ("serve", ["--store", "noperm.sqlite", "--table-port", "0", "--blob-port", "0", "--no-ui"]),
        ]
        for run in runs {
            let result = try await Self.runAsNobody(run.tool, run.arguments, in: scratch.path)
            #expect(result.status == 66, "\(result)")
            #expect(
                result.stderr.hasPrefix("\(run.tool): error: noperm.sqlite: cannot read it: Permission denied"),
                "\(result)"
            )
        }
    }

    @Test(
        "a WAL store in a directory the user may not write: export and validate read it",
        .enabled(
            if: !runningAsRoot || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            "root writes any directory; setpriv drops to nobody"
        )
    )
    func walStoreInReadOnlyDirectory() async throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("shared"), withIntermediateDirectories: false)
        let store = "shared/store.sqlite"
        // The run that creates a store uses a rollback journal; the next one that writes switches it to WAL.
        for arguments in [["--events", "20"], ["--events", "5", "--seed", "2", "--mode", "merge"]] {
            let seeded = try await SeedTool.run(arguments + ["--store", store, "--quiet"], in: scratch.path)
            try #require(seeded.status == 0, "\(seeded)")
        }
        let header = try #require(FileHandle(forReadingAtPath: scratch.file(store))).readData(ofLength: 20)
        try #require(header.count == 20 && header[18] == 2, "the store is not in WAL mode")
        chmod(scratch.file("shared"), 0o755)
        chmod(scratch.path, 0o777)
        let validated = try await Self.runAsNobody("validate", ["--store", store], in: scratch.path)
        #expect(validated.status == 0, "\(validated)")
        let exported = try await Self.runAsNobody("export", ["--store", store, "--to", "all.json"], in: scratch.path)
        #expect(exported.status == 0, "\(exported)")
        #expect(exported.stderr.contains("wrote 33 entities"), "\(exported)")
    }

    /// Runs a tool as `nobody` when the tests run as root, for whom file permissions do not hold.
    static func runAsNobody(_ tool: String, _ arguments: [String], in directory: String) async throws -> ProcessResult {
        var executable = tool == "seed" ? try SeedTool.path() : try BuiltTool(tool).executable.get()
        guard runningAsRoot else { return try await Subprocess.run(executable, arguments, directory: directory) }
        // nobody must reach the executable as well: CI's clone lies in a directory only root may enter.
        let copy = directory + "/" + tool + "-as-nobody"
        if !FileManager.default.fileExists(atPath: copy) {
            try FileManager.default.copyItem(atPath: executable, toPath: copy)
        }
        executable = copy
        // A child another test forks while the copy is open for writing holds it open until it execs:
        // executing the copy then fails with "Text file busy" for a moment. Not the tool's doing.
        for _ in 0..<20 {
            let result = try await Subprocess.run(
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments,
                directory: directory
            )
            guard result.status == 126, result.stderr.contains("Text file busy") else { return result }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("\(copy) stayed busy")
        throw CancellationError()
    }

    @Test("every tool's --help examples fit 80 columns: no example or its comment is wrapped")
    func helpExamplesFit() async throws {
        let scratch = try Scratch()
        for tool in Self.tools + ["serve"] {
            // At 80 columns the parser wraps a longer line onto one that starts in column 0.
            let help = try await Self.run(tool, ["--help"], in: scratch.path, environment: ["COLUMNS": "80"])
            let examples = try #require(
                help.stdout.components(separatedBy: "Examples:\n").last?.components(separatedBy: "\nUSAGE:").first
            )
            let lines = examples.split(separator: "\n")
            #expect(lines.count >= 5, "\(help.stdout)")
            for line in lines {
                #expect(line.hasPrefix("  ") && line.count <= 80, "\(tool): a wrapped example: '\(line)'")
            }
        }
    }

    /// One option's paragraph of a help text: from its line to the next option's.
    static func optionHelp(_ help: String, _ option: String) throws -> String {
        let after = try #require(help.components(separatedBy: "\n  \(option)").dropFirst().first, "\(help)")
        return after.components(separatedBy: "\n  -").first ?? after
    }

    @Test("each tool's --help speaks of itself: its own 73, --parallel, defaults given once, a short usage")
    func helpSpeaksOfItsTool() async throws {
        let scratch = try Scratch()
        var helps: [String: String] = [:]
        for tool in Self.tools + ["serve"] {
            let help = try await Self.run(tool, ["--help"], in: scratch.path, environment: ["COLUMNS": "200"])
            #expect(help.status == 0, "\(help)")
            helps[tool] = help.stdout
            #expect(
                help.stdout.contains("\nUSAGE: \(tool) [<options>]")
                    || help.stdout.contains("\nUSAGE: \(tool) <options>"),
                "\(tool): \(help.stdout)"
            )
            if tool != "seed" { #expect(!help.stdout.contains("the store seed writes"), "\(tool): \(help.stdout)") }
        }
        let parallel = try Self.optionHelp(helps["seed"]!, "--parallel <n>")
        #expect(!parallel.contains("export") && !parallel.contains("validate"), "\(parallel)")
        let dateFormat = try Self.optionHelp(helps["validate"]!, "--date-format <app|exact7|azure>")
        #expect(dateFormat.components(separatedBy: "default").count == 2, "once: \(dateFormat)")
        let mode = try Self.optionHelp(helps["seed"]!, "--mode <mode>")
        // The default at the end of the text, as every option gives it, then the parser's values.
        let defaultAt = try #require(mode.range(of: "(default: fresh)"), "\(mode)")
        #expect(mode.range(of: "values:").map { defaultAt.upperBound <= $0.lowerBound } ?? true, "\(mode)")
        #expect(mode.components(separatedBy: "default").count == 2, "once: \(mode)")
    }

    @Test("every tool's --help ends with its exit statuses, 130 and 143 among them")
    func helpListsExitStatus() async throws {
        let scratch = try Scratch()
        for tool in Self.tools + ["serve"] {
            let help = try await Self.run(tool, ["--help"], in: scratch.path)
            #expect(help.status == 0, "\(help)")
            let section = try #require(help.stdout.components(separatedBy: "Exit status:\n").last, "\(help)")
            let codes = section.split(separator: "\n").prefix { $0.hasPrefix("  ") }.compactMap {
                Int($0.split(separator: " ").first ?? "")
            }
            // serve stops cleanly on SIGINT or SIGTERM, with 0.
            let expected: [Int] =
                switch tool {
                case "validate": [0, 1, 64, 65, 66, 69, 73, 74, 130, 143]
                case "serve": [0, 64, 65, 66, 69, 73, 74]
                default: [0, 64, 65, 66, 69, 73, 74, 130, 143]
                }
            #expect(codes == expected, "\(help.stdout)")
            // The table ends the help, as the README says.
            #expect(section.split(separator: "\n").allSatisfy { $0.hasPrefix("  ") }, "\(help.stdout)")
        }
    }
}
