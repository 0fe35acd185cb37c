import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output that is a file the run reads (or seed writes) is refused with 64 before anything is read
/// or written: the same name, `./name`, a symlink or a hard link to it.
@Suite("every tool refuses an output that is its own input or store")
struct OutputClashTests {
    static let data = "PartitionKey,RowKey,Name\nspeakers,a,Ada\n"

    /// Runs a tool that must refuse, and checks the message names both files and nothing changed.
    static func expectRefused(
        _ tool: BuiltTool,
        _ arguments: [String],
        in scratch: borrowing Scratch,
        output: String,
        other: String,
        unchanged file: String
    ) async throws {
        let before = fileBytes(scratch.file(file))
        let result = try await tool.run(arguments, in: scratch.path)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("\(output) is the same file as") && result.stderr.contains(other), "\(result)")
        #expect(fileBytes(scratch.file(file)) == before, "\(file) was changed: \(result)")
        #expect(
            !directoryListing(scratch.path).contains { $0.contains(".partial-") },
            "\(directoryListing(scratch.path))"
        )
    }

    @Test("export --to the store it reads, by any path to it")
    func exportToItsStore() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch, name: "acct.sqlite")
        symlink("acct.sqlite", scratch.file("alias.sqlite"))
        link(store, scratch.file("hard.sqlite"))
        for output in ["acct.sqlite", "./acct.sqlite", "alias.sqlite", "hard.sqlite"] {
            try await Self.expectRefused(
                .export,
                ["--store", "acct.sqlite", "--to", output],
                in: scratch,
                output: "--to \(output)",
                other: "the store acct.sqlite",
                unchanged: "acct.sqlite"
            )
        }
    }

    @Test("export --to speakeasy.sqlite with the default store")
    func exportToDefaultStore() async throws {
        let scratch = try Scratch()
        _ = try await SeedTool.seededStore(scratch, name: "speakeasy.sqlite")
        try await Self.expectRefused(
            .export,
            ["--to", "speakeasy.sqlite"],
            in: scratch,
            output: "--to speakeasy.sqlite",
            other: "the store speakeasy.sqlite",
            unchanged: "speakeasy.sqlite"
        )
    }

    @Test("export --to one of its input files, or the file on stdin")
    func exportToItsInput() async throws {
        let scratch = try Scratch()
        try Self.data.write(toFile: scratch.file("data.csv"), atomically: true, encoding: .utf8)
        try Self.data.write(toFile: scratch.file("more.csv"), atomically: true, encoding: .utf8)
        try await Self.expectRefused(
            .export,
            ["more.csv", "data.csv", "--to", "./data.csv"],
            in: scratch,
            output: "--to ./data.csv",
            other: "the input data.csv",
            unchanged: "data.csv"
        )
        let export = try BuiltTool.export.executable.get()
        let piped = try await Subprocess.run(
            "/bin/sh",
            ["-c", "\"$0\" - --from-format csv --to data.csv < data.csv", export],
            directory: scratch.path
        )
        #expect(
            piped.status == 64 && piped.stderr.contains("--to data.csv is the same file as the input (stdin)"),
            "\(piped)"
        )
        #expect(fileBytes(scratch.file("data.csv")) == Data(Self.data.utf8))
    }

    @Test("stdout redirected to the store or an input file, which the run would append to")
    func stdoutToItsInput() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch, name: "acct.sqlite")
        let before = fileBytes(store)
        try Self.data.write(toFile: scratch.file("data.csv"), atomically: true, encoding: .utf8)
        let runs: [(tool: BuiltTool, arguments: String, other: String)] = [
            (.export, "--store acct.sqlite >> acct.sqlite", "the store acct.sqlite"),
            (.validate, "--store acct.sqlite >> acct.sqlite", "the store acct.sqlite"),
            (.export, "data.csv >> data.csv", "the input data.csv"),
        ]
        for run in runs {
            let result = try await Subprocess.run(
                "/bin/sh",
                ["-c", "\"$0\" \(run.arguments)", try run.tool.executable.get()],
                directory: scratch.path
            )
            #expect(
                result.status == 64 && result.stderr.contains("stdout is the same file as \(run.other)"),
                "\(result)"
            )
        }
        #expect(fileBytes(store) == before)
        #expect(fileBytes(scratch.file("data.csv")) == Data(Self.data.utf8))
    }

    @Test("validate --output the store it checks, or one of its files")
    func validateOverItsInput() async throws {
        let scratch = try Scratch()
        _ = try await SeedTool.seededStore(scratch, name: "acct.sqlite")
        try await Self.expectRefused(
            .validate,
            ["--store", "acct.sqlite", "--output", "acct.sqlite"],
            in: scratch,
            output: "--output acct.sqlite",
            other: "the store acct.sqlite",
            unchanged: "acct.sqlite"
        )
        try Self.data.write(toFile: scratch.file("data.csv"), atomically: true, encoding: .utf8)
        symlink(scratch.file("data.csv"), scratch.file("report.json"))
        try await Self.expectRefused(
            .validate,
            ["data.csv", "--report", "json", "--output", "report.json"],
            in: scratch,
            output: "--output report.json",
            other: "the input data.csv",
            unchanged: "data.csv"
        )
    }

    @Test("seed --store one of its --from-file files")
    func seedIntoItsInput() async throws {
        let scratch = try Scratch()
        try Self.data.write(toFile: scratch.file("data.csv"), atomically: true, encoding: .utf8)
        let before = fileBytes(scratch.file("data.csv"))
        let result = try await Subprocess.run(
            try SeedTool.path(),
            ["--from-file", "data.csv", "--store", "./data.csv"],
            directory: scratch.path
        )
        #expect(
            result.status == 64 && result.stderr.contains("--store ./data.csv is the same file as the input data.csv"),
            "\(result)"
        )
        #expect(fileBytes(scratch.file("data.csv")) == before)
    }

    @Test("another file, a device, or an output not there yet is no clash")
    func distinctOutputs() async throws {
        let scratch = try Scratch()
        try Self.data.write(toFile: scratch.file("data.csv"), atomically: true, encoding: .utf8)
        try Self.data.write(toFile: scratch.file("copy.csv"), atomically: true, encoding: .utf8)
        for output in ["copy.csv", "new.json", "/dev/null"] {
            let result = try await BuiltTool.export.run(["data.csv", "--to", output, "--quiet"], in: scratch.path)
            #expect(result.status == 0, "\(result)")
        }
    }
}
