import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an export leaves behind when it does not end normally: a reader that goes away, a signal,
/// a SIGKILL that no handler sees.
@Suite("export: closed pipes, signals and stale partial files")
struct OutputLifecycleTests {
    /// Starts `export - --from-format csv --to <target>` holding stdin open, and waits until its
    /// temporary file is there.
    static func startHeldExport(to target: String, in scratch: borrowing Scratch) async throws -> Subprocess {
        let path = try #require(try? BuiltTool.export.executable.get())
        let before = partials(of: target, in: scratch.path)
        let child = try Subprocess(
            path,
            ["-", "--from-format", "csv", "--to", target],
            directory: scratch.path,
            withInput: true
        )
        try child.write("PartitionKey,RowKey,Name\nspeakers,a,Ada\n")
        for _ in 0..<200 where partials(of: target, in: scratch.path).count == before.count {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        try #require(
            partials(of: target, in: scratch.path).count == before.count + 1,
            "export never created its temporary file"
        )
        return child
    }

    static func partials(of target: String, in directory: String) -> [String] {
        directoryListing(directory).filter { $0.hasPrefix("." + target + ".partial-") }
    }

    @Test("a reader that closes the pipe early: a quiet exit 74, as the README says, not death by SIGPIPE")
    func closedPipe() async throws {
        let scratch = try Scratch()
        let store = scratch.file("big.sqlite")
        let seeded = try await SeedTool.run(
            ["--events", "3000", "--seed", "3", "--store", store, "--quiet"],
            in: scratch.path
        )
        try #require(seeded.status == 0, "\(seeded)")
        let export = try #require(try? BuiltTool.export.executable.get())
        // bash reports the status of every stage of the pipeline. CSV goes through a spool first.
        for format in ["ndjson", "csv"] {
            let script =
                "\"$0\" --store \"$1\" --format \(format) | head -n 1 > first.\(format); echo \"${PIPESTATUS[0]}\""
            let result = try await Subprocess.run("/bin/bash", ["-c", script, export, store], directory: scratch.path)
            #expect(result.stdout == "74\n", "\(result)")
            #expect(result.stderr.isEmpty, "nothing to say when the reader chose to stop: \(result)")
        }
        #expect(
            try String(contentsOfFile: scratch.file("first.ndjson"), encoding: .utf8).contains(
                "\"PartitionKey\":\"Events\""
            )
        )
    }

    @Test(
        "any catchable terminating signal removes the partial output, then kills as that signal",
        arguments: [SIGUSR1, SIGUSR2, SIGQUIT, SIGALRM]
    )
    func terminatingSignal(signal: Int32) async throws {
        let scratch = try Scratch()
        let child = try await Self.startHeldExport(to: "out.json", in: scratch)
        child.kill(signal)
        let result = await child.finish()
        #expect(result.killedBySignal && result.status == signal, "\(result)")
        #expect(directoryListing(scratch.path).isEmpty, "\(directoryListing(scratch.path))")
    }

    @Test("SIGPIPE is ignored: the run goes on to a complete output and no partial file")
    func sigpipeIgnored() async throws {
        let scratch = try Scratch()
        let child = try await Self.startHeldExport(to: "out.json", in: scratch)
        child.kill(SIGPIPE)
        try await Task.sleep(nanoseconds: 100_000_000)
        try child.write("speakers,b,Bo\n")
        child.closeInput()
        let result = await child.finish()
        #expect(!result.killedBySignal && result.status == 0, "\(result)")
        #expect(directoryListing(scratch.path) == ["out.json"])
        #expect(try String(contentsOfFile: scratch.file("out.json"), encoding: .utf8).contains("\"Bo\""))
    }

    @Test("after a SIGKILL, the next export to the same target removes the dead writer's partial file, and only that")
    func stalePartialRemoved() async throws {
        let scratch = try Scratch()
        // A partial whose writer is alive, and another target's partial, are not ours to remove.
        let alive = try await Self.startHeldExport(to: "y.atom", in: scratch)
        let living = Self.partials(of: "y.atom", in: scratch.path)
        try "x".write(toFile: scratch.file(".other.atom.partial-abcdef"), atomically: false, encoding: .utf8)
        let killed = try await Self.startHeldExport(to: "y.atom", in: scratch)
        killed.kill(SIGKILL)
        _ = await killed.finish()
        #expect(Self.partials(of: "y.atom", in: scratch.path).count == 2, "SIGKILL leaves its file: no handler runs")

        try "PartitionKey,RowKey\r\np,r\r\n".write(toFile: scratch.file("in.csv"), atomically: true, encoding: .utf8)
        let next = try await BuiltTool.export.run(["in.csv", "--to", "y.atom"], in: scratch.path)
        #expect(next.status == 0, "\(next)")
        #expect(
            Self.partials(of: "y.atom", in: scratch.path) == living,
            "the dead writer's file is gone, the living one's stays"
        )
        #expect(fileExists(scratch.file(".other.atom.partial-abcdef")))

        alive.closeInput()
        let finished = await alive.finish()
        #expect(finished.status == 0, "\(finished)")
        #expect(directoryListing(scratch.path) == [".other.atom.partial-abcdef", "in.csv", "y.atom"])
    }
}
