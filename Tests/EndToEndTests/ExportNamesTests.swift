import Foundation
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// `export` answers a name that matches nothing, or an option its output ignores, with an error that
/// lists what there is, never with an empty file and exit 0.
@Suite("export: typos are errors")
struct ExportNamesTests {
    @Test(
        "an unknown table or partition is 66 and lists the ones there are; nothing is written",
        arguments: [
            (
                ["--partition", "events"],
                "--partition events: no partition of table 'events' has that name; there are: Events, speakers"
            ),
            (
                ["--partition", "Foo"],
                "--partition Foo: no partition of table 'events' has that name; there are: Events, speakers"
            ),
            (
                ["--table", "nope"],
                "--table nope: no table of store.sqlite has that name; there are: events, seedmanifest"
            ),
        ]
    )
    func unknownSource(arguments: [String], message: String) async throws {
        let scratch = try Scratch()
        _ = try await SeedTool.seededStore(scratch)
        let result = try await BuiltTool.export.run(
            ["--store", "store.sqlite", "--to", "out.csv"] + arguments,
            in: scratch.path
        )
        #expect(result.status == 66, "\(result)")
        #expect(result.stderr == "export: error: \(message)\n", "\(result)")
        #expect(directoryListing(scratch.path) == ["store.sqlite"], "no output, no temporary file")
    }

    /// The names are checked only when a read finds nothing: checked first, they cost every export
    /// of an account two round trips. Here the account refuses to list its tables, so an export
    /// that asked would fail.
    @Test("a partition that has entities is read without listing tables first, over the REST protocol")
    func namesCheckedOnlyWhenNothingIsRead() async throws {
        let scratch = try Scratch()
        try await withRunningServer(
            configure: { $0.faults = try! FaultPlan(parsing: "500/path=/devstoreaccount1/Tables") },
            prepare: { path in
                let seeded = try await SeedTool.run(
                    ["--seed", "5", "--events", "50", "--store", path, "--quiet"],
                    in: scratch.path
                )
                try #require(seeded.status == 0, "\(seeded)")
            },
            { server in
                for parallel in ["1", "4"] {
                    let result = try await BuiltTool.export.run(
                        ["--store", server.connectionString(), "--partition", "Events", "--parallel", parallel]
                            + ["--format", "ndjson", "--metadata", "none"],
                        in: scratch.path
                    )
                    #expect(result.status == 0, "\(result)")
                    #expect(result.stdout.split(separator: "\n").count == 50, "\(result)")
                }
                // With nothing to read, the listing is asked for, and its failure is the error.
                let missing = try await BuiltTool.export.run(
                    ["--store", server.connectionString(), "--partition", "Nope"],
                    in: scratch.path
                )
                #expect(missing.status == 74 && missing.stderr.contains("a fault injected by --faults"), "\(missing)")
            }
        )
    }

    @Test(
        "a property no entity has, in --sort or --columns, is 64 and lists the properties seen",
        arguments: [
            ["--sort", "NoSuchProp"], ["--columns", "EventNmae"], ["--columns", "EventName,EventNmae"],
        ]
    )
    func unknownProperty(arguments: [String]) async throws {
        let scratch = try Scratch()
        _ = try await SeedTool.seededStore(scratch)
        let result = try await BuiltTool.export.run(
            ["--store", "store.sqlite", "--partition", "Events", "--to", "out.csv"] + arguments,
            in: scratch.path
        )
        #expect(result.status == 64, "\(result)")
        let name = arguments[1].split(separator: ",").last!
        #expect(
            result.stderr.hasPrefix(
                "export: error: \(arguments[0]) \(name): no property of the 100 entities read has that name; there are: "
                    + "EventDate, EventDescription, EventLocation, EventName, PartitionKey, RowKey, SpeakerKey, SpeakerName, Timestamp\nUsage: export "
            ),
            "\(result)"
        )
        #expect(result.stderr.hasSuffix("See 'export --help' for more information.\n"), "\(result)")
        #expect(directoryListing(scratch.path) == ["store.sqlite"])
    }

    @Test("names that exist still work, also where a name only appears in a later partition")
    func knownNames() async throws {
        let scratch = try Scratch()
        _ = try await SeedTool.seededStore(scratch)
        // The store yields Events before speakers: Name first appears after 100 events.
        let result = try await BuiltTool.export.run(
            ["--store", "store.sqlite", "--columns", "Name,EventName", "--sort", "Name", "--format", "csv"],
            in: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.split(separator: "\r\n").count == 109)
    }

    @Test(
        "an option the output format ignores is a usage error (64)",
        arguments: [
            (["--typed", "--format", "json"], "--typed applies to csv output; it does not apply to json output"),
            (
                ["--delimiter", ";", "--format", "json"],
                "--delimiter applies to csv output or input; it does not apply to json output"
            ),
            (
                ["--metadata", "full", "--format", "csv"],
                "--metadata applies to json and ndjson output; it does not apply to csv output"
            ),
            (
                ["--metadata", "none", "--to", "x.atom"],
                "--metadata applies to json and ndjson output; it does not apply to atom output"
            ),
            (["feed.json", "--store", "x.sqlite"], "give either files or --store, not both"),
            (["feed.json", "--table", "events"], "--table reads from the storage account; it does not apply to files"),
        ]
    )
    func optionThatDoesNotApply(arguments: [String], message: String) async throws {
        let scratch = try Scratch()
        let result = try await BuiltTool.export.run(arguments, in: scratch.path)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("export: error: \(message)\nUsage: export "), "\(result)")
    }

    @Test("--delimiter still reads CSV input whatever the output format")
    func delimiterForInput() async throws {
        let scratch = try Scratch()
        try "PartitionKey;RowKey;Name\r\np;r;Ada\r\n".write(
            toFile: scratch.file("in.csv"),
            atomically: true,
            encoding: .utf8
        )
        let result = try await BuiltTool.export.run(
            ["in.csv", "--delimiter", ";", "--format", "ndjson", "--metadata", "none"],
            in: scratch.path
        )
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "{\"PartitionKey\":\"p\",\"RowKey\":\"r\",\"Name\":\"Ada\"}\n")
    }
}
