import Foundation
import Testing

/// What the tools tell a user beyond the bare fault: help that matches the parser, findings that say
/// their cause.
@Suite("hints")
struct HintsTests {
    @Test("seed --help, the Seeding article and the parser agree: the Z of a --from time is optional")
    func fromWithoutZ() async throws {
        let scratch = try Scratch()
        let help = try await SeedTool.run(["--help"], in: scratch.path)
        #expect(help.stdout.contains("yyyy-MM-ddTHH:mm:ss[.fffffff][Z]"), "\(help)")
        #expect(!help.stdout.contains("[.fffffff]Z"), "\(help)")
        let seeding = SeedTool.packageRoot + "/Sources/SpeakEasyData/Documentation.docc/SeedingInDepth.md"
        let article = try String(contentsOfFile: seeding, encoding: .utf8)
        #expect(article.contains("`yyyy-MM-dd` or `yyyy-MM-ddTHH:mm:ss[.fffffff][Z]`"))
        for from in ["2027-01-01T10:00:00", "2027-01-01T10:00:00Z"] {
            let run = try await SeedTool.run(
                ["--from", from, "--cutoff", "2027-02-01", "--dry-run", "--seed", "1"],
                in: scratch.path
            )
            #expect(run.status == 0, "\(run)")
        }
    }

    @Test("validate of events alone: the orphans say that no speakers were read")
    func eventsAlone() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let exported = try await BuiltTool.export.run(
            ["--store", store, "--partition", "Events", "--to", "events.ndjson"],
            in: scratch.path
        )
        try #require(exported.status == 0, "\(exported)")
        let result = try await BuiltTool.validate.run(["events.ndjson", "--rule", "references"], in: scratch.path)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout.contains("no speakers were read at all (their file was not given with the events)"),
            "\(result)"
        )
    }
}
