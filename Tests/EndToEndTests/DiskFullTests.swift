import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// A disk that fills up under each tool: a small tmpfs, mounted in a mount namespace of the tool's own
/// (`unshare -rm`, which needs no root where unprivileged user namespaces are allowed, as on Debian).
/// Every tool stops with exit 74 and a message that names the file; nothing half-written is left; a
/// store stays whole (`PRAGMA integrity_check`), and once there is room the same `seed` finishes.
///
/// The tmpfs exists only inside the namespace, so each check runs as one shell script there and
/// prints what the test reads: the tool's exit, then the directory's listing.
@Suite("the tools on a full disk", .serialized)
struct DiskFullTests {
    /// Runs `script` with `$FULL` a tmpfs of `size` (as mount's `size=`).
    static func onSmallDisk(
        _ size: String,
        _ script: String,
        in scratch: borrowing Scratch
    ) async throws -> ProcessResult {
        let full = scratch.file("full")
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        let mount = "mount -t tmpfs -o size=\(size) tmpfs \"$FULL\" || { echo 'cannot mount a tmpfs'; exit 99; }\n"
        return try await Subprocess.run(
            "/usr/bin/unshare",
            ["-rm", "sh", "-c", mount + script],
            directory: scratch.path,
            environment: ["FULL": full]
        )
    }

    static func tool(_ name: String) throws -> String { try SeedTool.locate(name).get() }

    /// Events of a seeded store as NDJSON outside the small disk: about 1.5 KB an event.
    static func events(_ scratch: borrowing Scratch, count: Int) async throws -> String {
        let store = scratch.file("source.sqlite")
        let seeded = try await SeedTool.run(
            ["--store", store, "--events", String(count), "--seed", "3", "--quiet"],
            in: scratch.path
        )
        try #require(seeded.status == 0, "\(seeded)")
        let file = scratch.file("events.ndjson")
        let exported = try await BuiltTool.export.run(
            ["--store", store, "--partition", "Events", "--to", file, "--quiet"],
            in: scratch.path
        )
        try #require(exported.status == 0, "\(exported)")
        return file
    }

    @Test("export --to: exit 74 naming the file, and no output or temporary file left", .timeLimit(.minutes(3)))
    func export() async throws {
        let scratch = try Scratch()
        let events = try await Self.events(scratch, count: 2_000)
        let result = try await Self.onSmallDisk(
            "512k",
            "\"\(try Self.tool("export"))\" \"\(events)\" --format csv --to \"$FULL/out.csv\"\necho \"exit=$?\"\nls -A \"$FULL\"",
            in: scratch
        )
        #expect(result.stdout == "exit=74\n", "\(result)")
        #expect(result.stderr.contains("out.csv") && result.stderr.contains("No space left on device"), "\(result)")
    }

    /// Past its first 8 MB an output is written past the page cache, by a thread of its own
    /// (`DirectWriter`): the disk fills there, and the tool still stops with 74 and leaves nothing.
    @Test("export --to, full past the page cache: exit 74 naming the file, nothing left", .timeLimit(.minutes(3)))
    func exportPastTheCache() async throws {
        let scratch = try Scratch()
        let events = try await Self.events(scratch, count: 10_000)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: events)[.size] as? Int)
        try #require(size > 12 << 20, "the events are \(size) bytes, too few to fill 10 MiB")
        let result = try await Self.onSmallDisk(
            "10m",
            "\"\(try Self.tool("export"))\" \"\(events)\" --format ndjson --to \"$FULL/out.ndjson\"\necho \"exit=$?\"\nls -A \"$FULL\"",
            in: scratch
        )
        #expect(result.stdout == "exit=74\n", "\(result)")
        #expect(result.stderr.contains("out.ndjson") && result.stderr.contains("No space left on device"), "\(result)")
    }

    @Test("validate --output: exit 74 naming the file, and no report or temporary file left", .timeLimit(.minutes(3)))
    func validate() async throws {
        let scratch = try Scratch()
        // Events without their speakers: every one is a finding, a report of some 300 KB.
        let events = try await Self.events(scratch, count: 1_000)
        let result = try await Self.onSmallDisk(
            "64k",
            "\"\(try Self.tool("validate"))\" \"\(events)\" --report json --output \"$FULL/report.json\"\necho \"exit=$?\"\nls -A \"$FULL\"",
            in: scratch
        )
        #expect(result.stdout == "exit=74\n", "\(result)")
        #expect(result.stderr.contains("report.json") && result.stderr.contains("No space left on device"), "\(result)")
    }

    @Test(
        "seed: exit 74, a store that passes integrity_check, and the same command finishes once there is room",
        .timeLimit(.minutes(4))
    )
    func seed() async throws {
        let scratch = try Scratch()
        let seed = try Self.tool("seed")
        let command =
            "\"\(seed)\" --store \"$FULL/store.sqlite\" --events 20000 --seed 9 --quiet --samples \"\(SeedTool.samples)\""
        let count =
            "sqlite3 \"$FULL/store.sqlite\" \"SELECT count(*) FROM entities WHERE table_name = 'events' AND partition_key = 'Events'\""
        let result = try await Self.onSmallDisk(
            "6m",
            """
            \(command)
            echo "exit=$?"
            ls -A "$FULL"
            sqlite3 "$FULL/store.sqlite" "PRAGMA integrity_check"
            mount -o remount,size=200m "$FULL"
            \(command)
            echo "again=$?"
            sqlite3 "$FULL/store.sqlite" "PRAGMA integrity_check"
            \(count)
            """,
            in: scratch
        )
        #expect(result.stdout == "exit=74\nstore.sqlite\nok\nagain=0\nok\n20000\n", "\(result)")
        #expect(result.stderr.contains("store.sqlite") && result.stderr.contains("disk is full"), "\(result)")
    }
}
