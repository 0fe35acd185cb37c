import Foundation
import Testing

/// The progress line on a real terminal: `script` runs the tool on a pseudo-terminal that is both its
/// stdout and its stderr, and records everything it shows.
@Suite("progress on a terminal")
struct ProgressTerminalTests {
    /// What the terminal showed while `command` ran in `directory` (stdout and stderr alike).
    static func onTerminal(_ command: String, in directory: String) async throws -> String {
        let result = try await Subprocess.run("/usr/bin/script", ["-qec", command, "/dev/null"], directory: directory)
        try #require(result.status == 0, "\(result)")
        return result.stdout
    }

    static let clearLine = "\r\u{1B}[2K"

    @Test("to a file: a count and a rate with units; to the same terminal as the data: no progress at all")
    func progressOnlyWhereItCannotGarble() async throws {
        let scratch = try Scratch()
        let export = try #require(try? BuiltTool.export.executable.get())
        // Progress is reported every 4,096 entities: more than that, so it has something to show.
        let seeded = try await SeedTool.run(
            ["--events", "5000", "--seed", "5", "--store", "big.sqlite", "--quiet"],
            in: scratch.path
        )
        try #require(seeded.status == 0, "\(seeded)")

        let toFile = try await Self.onTerminal("'\(export)' --store big.sqlite --to all.ndjson", in: scratch.path)
        #expect(toFile.contains(Self.clearLine + "export 4,096 entities · "), "\(toFile.debugDescription)")
        #expect(toFile.contains(" entities/s"), "\(toFile.debugDescription)")
        #expect(!toFile.contains("%"), "no share of an unknown total: \(toFile.debugDescription)")

        let fromStdin = try await Self.onTerminal(
            "'\(export)' - --from-format ndjson --to copy.json < all.ndjson",
            in: scratch.path
        )
        #expect(fromStdin.contains(" entities · "), "\(fromStdin.debugDescription)")
        #expect(
            fromStdin.contains(" MB/s") || fromStdin.contains(" kB/s"),
            "a byte rate with its unit: \(fromStdin.debugDescription)"
        )
        #expect(!fromStdin.contains("%"), "\(fromStdin.debugDescription)")

        let toTerminal = try await Self.onTerminal("'\(export)' --store big.sqlite --format ndjson", in: scratch.path)
        #expect(toTerminal.contains("\"PartitionKey\":\"Events\""), "the data reached the terminal")
        #expect(!toTerminal.contains("\u{1B}["), "no progress mixed into the data")
    }
}

extension ProgressTerminalTests {
    /// The lines a terminal was shown, one for each time the progress line was redrawn.
    static func progressLines(_ shown: String) -> [Substring] {
        shown.components(separatedBy: clearLine).dropFirst().map { Substring($0) }
    }

    @Test("seed --mode merge shows its read of the table as a count, and verifies against the table's size")
    func mergeProgress() async throws {
        let scratch = try Scratch()
        let seed = try SeedTool.path()
        let seeded = try await SeedTool.run(
            ["--events", "30000", "--seed", "1", "--from", "2026-01-01", "--store", "big.sqlite", "--quiet"],
            in: scratch.path
        )
        try #require(seeded.status == 0, "\(seeded)")

        let shown = try await Self.onTerminal(
            "'\(seed)' --mode merge --events 2000 --seed 2 --from 2026-01-01 --store big.sqlite --samples '\(SeedTool.samples)'",
            in: scratch.path
        )
        let lines = Self.progressLines(shown)
        let reading = lines.filter { $0.hasPrefix("reading ") }
        #expect(reading.contains { $0.hasPrefix("reading 10,000 entities · ") }, "\(shown.debugDescription)")
        #expect(!reading.contains { $0.contains("%") }, "no share of an unknown total: \(shown.debugDescription)")

        // What the table holds now: the total the last phase counts towards, from its first line.
        let held = try await SQLiteShell.integer(
            scratch.file("big.sqlite"),
            "SELECT count(*) FROM entities WHERE table_name = 'events'"
        )
        let verifying = lines.filter { $0.hasPrefix("verifying ") }
        let total = held.formatted(.number.locale(Locale(identifier: "en_US")))
        #expect(held > 30_000)
        #expect(verifying.contains { $0.contains(" 10,000 of \(total) entities") }, "\(shown.debugDescription)")
    }
}
