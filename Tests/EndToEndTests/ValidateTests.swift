import Foundation
import SpeakEasyData
import TestServer
import Testing

/// `validate`, end to end: the built executable against a seeded store and exported files, every
/// report format it has and every exit status.
@Suite("validate")
struct ValidateTests {
    /// A store seeded with seed 42 (8 speakers, 100 events) in `scratch`, and its export as CSV.
    static func seeded(_ scratch: borrowing Scratch) async throws -> String {
        let store = try await SeedTool.seededStore(scratch)
        let exported = try await BuiltTool.export.run(
            ["--store", store, "--to", "all.csv", "--quiet"],
            in: scratch.path
        )
        #expect(exported.status == 0, "\(exported)")
        return store
    }

    /// all.csv with one event's SpeakerName changed and one event's date trimmed as Azure does.
    static func broken(_ scratch: borrowing Scratch) throws -> (orphanLine: Int, dateLine: Int) {
        var lines = try String(contentsOfFile: scratch.file("all.csv"), encoding: .utf8).components(separatedBy: "\r\n")
        let eventLines = lines.indices.filter { lines[$0].hasPrefix("Events,") }
        let first = eventLines[0]
        let second = eventLines[1]
        // The date as a file that went through Azure might hold it: its fraction trimmed.
        // (At minute resolution EventDate is the one value ending ':00.0000001Z'.)
        lines[first] = lines[first].replacingOccurrences(of: ":00.0000001Z,", with: ":00Z,")
        let keyPattern = try NSRegularExpression(pattern: ",([0-9a-f-]{36}),([^,]*),,,,$")
        let range = NSRange(lines[second].startIndex..., in: lines[second])
        lines[second] = keyPattern.stringByReplacingMatches(
            in: lines[second],
            range: range,
            withTemplate: ",99999999-0000-4000-8000-000000000000,$2,,,,"
        )
        try lines.joined(separator: "\r\n").write(toFile: scratch.file("broken.csv"), atomically: true, encoding: .utf8)
        return (second + 1, first + 1)
    }

    @Test("a clean store and its export: exit 0, text report is the summary line")
    func clean() async throws {
        let scratch = try Scratch()
        let store = try await Self.seeded(scratch)
        let fromStore = try await BuiltTool.validate.run(["--store", store], in: scratch.path)
        #expect(fromStore.status == 0, "\(fromStore)")
        #expect(fromStore.stdout == "validate: no problems in 108 entities (\(store))\n")
        #expect(fromStore.stderr == "")
        let fromFile = try await BuiltTool.validate.run(["all.csv"], in: scratch.path)
        #expect(fromFile.status == 0, "\(fromFile)")
        #expect(fromFile.stdout == "validate: no problems in 108 entities (all.csv)\n")
    }

    @Test("findings: exit 1; text grouped by rule with file:line; json with the same findings")
    func findings() async throws {
        let scratch = try Scratch()
        _ = try await Self.seeded(scratch)
        let (orphanLine, dateLine) = try Self.broken(scratch)
        let text = try await BuiltTool.validate.run(["broken.csv"], in: scratch.path)
        #expect(text.status == 1, "\(text)")
        #expect(text.stdout.contains("error dates.format (1 finding)"), "\(text)")
        #expect(text.stdout.contains("  broken.csv:\(dateLine) (Events/"), "\(text)")
        #expect(text.stdout.contains("error references.orphan (1 finding)"), "\(text)")
        #expect(text.stdout.contains("  broken.csv:\(orphanLine) (Events/"), "\(text)")
        #expect(text.stdout.hasSuffix("validate: 2 errors in 108 entities (broken.csv)\n"), "\(text)")
        #expect(!text.stdout.contains("\u{1B}["), "no colour off a terminal")

        let json = try await BuiltTool.validate.run(["broken.csv", "--report", "json"], in: scratch.path)
        #expect(json.status == 1)
        #expect(json.stderr == "validate: 2 errors in 108 entities (broken.csv)\n")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["dates.format", "references.orphan"])
        #expect(findings.map { ($0["location"] as? [String: Any])?["line"] as? Int } == [dateLine, orphanLine])

        // --date-format azure accepts the trimmed date; --skip drops the orphan.
        let azure = try await BuiltTool.validate.run(
            ["broken.csv", "--date-format", "azure", "--skip", "references"],
            in: scratch.path
        )
        #expect(azure.status == 0, "\(azure)")
        let only = try await BuiltTool.validate.run(["broken.csv", "--rule", "dates.format"], in: scratch.path)
        #expect(only.status == 1)
        #expect(!only.stdout.contains("references.orphan"))
        let stopped = try await BuiltTool.validate.run(
            ["broken.csv", "--max-errors", "1", "--report", "json"],
            in: scratch.path
        )
        #expect(stopped.status == 1)
        #expect(stopped.stdout.contains("\"truncated\": true"), "\(stopped)")
        #expect(stopped.stderr.contains("at least 1 error in"), "\(stopped)")
        #expect(stopped.stderr.contains("stopped at --max-errors 1"), "\(stopped)")
    }

    @Test("findings in the CI forms: JUnit XML, GitHub annotations, SARIF 2.1.0")
    func ciReports() async throws {
        let scratch = try Scratch()
        _ = try await Self.seeded(scratch)
        let (orphanLine, dateLine) = try Self.broken(scratch)

        let junit = try await BuiltTool.validate.run(["broken.csv", "--report", "junit"], in: scratch.path)
        #expect(junit.status == 1, "\(junit)")
        #expect(junit.stdout.hasPrefix("<?xml"), "\(junit)")
        #expect(junit.stdout.contains("<testsuite name=\"dates.format\""), "\(junit)")
        #expect(junit.stdout.contains("broken.csv:\(orphanLine)"), "\(junit)")
        #expect(junit.stderr == "validate: 2 errors in 108 entities (broken.csv)\n")

        let github = try await BuiltTool.validate.run(["broken.csv", "--report", "github"], in: scratch.path)
        #expect(github.status == 1, "\(github)")
        let lines = github.stdout.split(separator: "\n")
        #expect(
            lines.contains { $0.hasPrefix("::error file=broken.csv,line=\(dateLine),title=dates.format::") },
            "\(github)"
        )
        #expect(
            lines.contains { $0.hasPrefix("::error file=broken.csv,line=\(orphanLine),title=references.orphan::") },
            "\(github)"
        )

        let sarif = try await BuiltTool.validate.run(
            ["broken.csv", "--report", "sarif", "--output", "report.sarif"],
            in: scratch.path
        )
        #expect(sarif.status == 1, "\(sarif)")
        let data = try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/report.sarif"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] as? String == "2.1.0")
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(Set(results.compactMap { $0["ruleId"] as? String }) == ["dates.format", "references.orphan"])
    }

    @Test("--output writes the report atomically; the summary still goes to stderr")
    func outputFile() async throws {
        let scratch = try Scratch()
        _ = try await Self.seeded(scratch)
        _ = try Self.broken(scratch)
        let result = try await BuiltTool.validate.run(
            ["broken.csv", "--report", "json", "--output", "report.json"],
            in: scratch.path
        )
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout == "")
        #expect(result.stderr == "validate: 2 errors in 108 entities (broken.csv)\n")
        let report = try #require(fileBytes(scratch.file("report.json")))
        #expect(try JSONSerialization.jsonObject(with: report) is [String: Any])
        #expect(directoryListing(scratch.path).filter { $0.contains("partial") }.isEmpty)
        let text = try await BuiltTool.validate.run(
            ["broken.csv", "--output", "report.txt", "--quiet"],
            in: scratch.path
        )
        #expect(text.status == 1)
        #expect(text.stderr == "")
        #expect(try String(contentsOfFile: scratch.file("report.txt"), encoding: .utf8).contains("references.orphan"))
    }

    @Test("warnings pass unless --warnings-as-errors")
    func warnings() async throws {
        let scratch = try Scratch()
        try
            "PartitionKey,RowKey,Name,Title,Bio,ImageUrl\r\nspeakers,not-a-guid,A,B,C,http://x/speakeasy/speakers/a.jpg\r\n"
            .write(toFile: scratch.file("s.csv"), atomically: true, encoding: .utf8)
        let plain = try await BuiltTool.validate.run(["s.csv"], in: scratch.path)
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.stdout.contains("warning contract.rowkey-guid (1 finding)"))
        #expect(plain.stdout.contains("s.csv:2 (speakers/not-a-guid)"))
        let strict = try await BuiltTool.validate.run(["s.csv", "--warnings-as-errors"], in: scratch.path)
        #expect(strict.status == 1, "\(strict)")
    }

    @Test("a selection that leaves no rule is 64; selected rules that need a store are 'not run' in every report")
    func ruleSelection() async throws {
        let scratch = try Scratch()
        try
            "PartitionKey,RowKey,Name,Title,Bio,ImageUrl\r\nspeakers,not-a-guid,A,B,C,http://x/speakeasy/speakers/a.jpg\r\n"
            .write(toFile: scratch.file("s.csv"), atomically: true, encoding: .utf8)
        for arguments in [
            ["s.csv", "--rule", "dates.format", "--skip", "dates.format"], ["--rule", "dates", "--skip", "dates"],
            ["s.csv", "--rule", "photos"], ["s.csv", "--rule", "photos.missing,manifest"],
        ] {
            let result = try await BuiltTool.validate.run(arguments, in: scratch.path)
            #expect(result.status == 64, "\(result)")
            #expect(result.stderr.contains("Usage: validate"), "\(result)")
        }
        let note = "not run: photos.missing, which checks a storage account, not files"
        let expectations: [(report: String, shows: String)] = [
            ("text", note), ("json", "\"notRun\": [\"photos.missing\"]"),
            ("github", "::notice title=validate::" + note),
            ("sarif", note), ("html", note), ("junit", "<skipped message=\"not run: it checks a storage account"),
        ]
        for (report, shows) in expectations {
            let result = try await BuiltTool.validate.run(
                ["s.csv", "--rule", "photos.missing,contract", "--report", report],
                in: scratch.path
            )
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains(shows), "\(report): \(result.stdout)")
        }
        // The default selection runs what applies, and lists nothing as not run.
        let all = try await BuiltTool.validate.run(["s.csv", "--report", "json"], in: scratch.path)
        #expect(!all.stdout.contains("notRun"), "\(all)")
    }

    @Test("a photo whose bytes changed behind its Content-MD5 is a finding, locally and over serve")
    func photoContentChanged() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let changed = try await SQLiteShell.run(
            store,
            "UPDATE blobs SET data = substr(data, 1, 3) WHERE name = 'BTubalinal.jpg'",
            readOnly: false
        )
        try #require(changed.status == 0, "\(changed)")
        let local = try await BuiltTool.validate.run(["--store", store, "--rule", "photos"], in: scratch.path)
        #expect(local.status == 1, "\(local)")
        #expect(local.stdout.contains("error photos.content-md5 (1 finding)"), "\(local)")
        #expect(local.stdout.contains("blob 'BTubalinal.jpg' holds 3 bytes with MD5"), "\(local)")
        let skipped = try await BuiltTool.validate.run(
            ["--store", store, "--rule", "photos", "--skip", "photos.content-md5"],
            in: scratch.path
        )
        #expect(skipped.status == 0, "\(skipped)")
        try await withRunningServer { server in
            let seeded = try await SeedTool.run(
                ["--events", "5", "--store", server.connectionString()],
                in: scratch.path
            )
            try #require(seeded.status == 0, "\(seeded)")
            let behind = try await SQLiteShell.run(
                server.store,
                "UPDATE blobs SET data = substr(data, 1, 3) WHERE name = 'BTubalinal.jpg'",
                readOnly: false
            )
            try #require(behind.status == 0, "\(behind)")
            let served = try await BuiltTool.validate.run(
                ["--store", server.connectionString(), "--rule", "photos"],
                in: scratch.path
            )
            #expect(served.status == 1, "\(served)")
            #expect(served.stdout.contains("error photos.content-md5 (1 finding)"), "\(served)")
        }
    }

    @Test("a store with defects: exit 1, findings located in the table and the container")
    func store() async throws {
        let scratch = try Scratch()
        let store = try await Self.seeded(scratch)
        let injected = try await SQLiteShell.run(
            store,
            "UPDATE blobs SET content_type = 'text/plain' WHERE name = 'BTubalinal.jpg'; UPDATE containers SET public_access = 'private';",
            readOnly: false
        )
        #expect(injected.status == 0, "\(injected)")
        let result = try await BuiltTool.validate.run(["--store", store, "--report", "json"], in: scratch.path)
        #expect(result.status == 1, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { $0["rule"] as? String } == ["photos.access", "photos.content-type"])
        #expect(
            findings.map { ($0["location"] as? [String: Any])?["text"] as? String } == [
                "speakers", "speakers/BTubalinal.jpg",
            ]
        )
    }

    @Test("a spreadsheet's CSV: --delimiter, and dates that are no dates reported, not the end of the run")
    func spreadsheetCSV() async throws {
        let scratch = try Scratch()
        let speaker = "1b7d3d6f-2c8f-4c9f-8d2b-7a1f3e4d5c6b"
        let csv = """
            PartitionKey;RowKey;Name;Title;Bio;ImageUrl;EventDate;EventName;EventLocation;EventDescription;SpeakerKey;SpeakerName
            speakers;\(speaker);Darya Orlova;Consultant;Darya.;http://x/d.jpg;;;;;;
            Events;e0000000-0000-4000-8000-000000000001;;;;;tomorrow;iOS Meetup;Chicago, IL;Lorem.;\(speaker);Darya Orlova
            Events;e0000000-0000-4000-8000-000000000002;;;;;2026-03-01T09:30:00.0000001Z;iOS Meetup;Chicago, IL;Lorem.;\(speaker);Darya Orlova
            Events;e0000000-0000-4000-8000-000000000003;;;;;03/01/2026;iOS Meetup;Chicago, IL;Lorem.;\(speaker);Darya Orlova

            """
        try csv.write(toFile: scratch.file("sheet.csv"), atomically: true, encoding: .utf8)
        let result = try await BuiltTool.validate.run(
            ["sheet.csv", "--delimiter", ";", "--report", "github"],
            in: scratch.path
        )
        #expect(result.status == 1, "\(result)")
        let annotations = result.stdout.split(separator: "\n").filter { $0.hasPrefix("::error") }
        #expect(annotations.count == 2, "\(result)")
        #expect(
            annotations.first?.contains("line=3") == true
                && annotations.first?.contains("EventDate 'tomorrow' is Edm.String") == true,
            "\(result)"
        )
        #expect(
            annotations.last?.contains("line=5") == true && annotations.last?.contains("'03/01/2026'") == true,
            "\(result)"
        )

        // export still refuses the file: there a date that is no date cannot be converted.
        let exported = try await BuiltTool.export.run(
            ["sheet.csv", "--delimiter", ";", "--to", "out.json"],
            in: scratch.path
        )
        #expect(exported.status == 65, "\(exported)")
        #expect(exported.stderr.contains("sheet.csv:3:"), "\(exported)")
    }

    @Test("usage errors are 64; missing input 66; a malformed file 65 with file:line; an unwritable report 73")
    func exitCodes() async throws {
        let scratch = try Scratch()
        for arguments in [
            ["--report", "nope"], ["--rule", "nope"], ["--max-errors", "0"],
            ["a.csv", "--store", "x.sqlite"], ["--from", "2026-02-01", "--cutoff", "2026-01-01"],
            ["--date-format", "iso"],
            ["a.csv", "--delimiter", ";;"], ["--delimiter", ";"],
        ] {
            let result = try await BuiltTool.validate.run(arguments, in: scratch.path)
            #expect(result.status == 64, "\(arguments): \(result)")
        }
        let noStore = try await BuiltTool.validate.run([], in: scratch.path)
        #expect(noStore.status == 66, "\(noStore)")
        let noFile = try await BuiltTool.validate.run(["missing.csv"], in: scratch.path)
        #expect(noFile.status == 66, "\(noFile)")

        try "{\"PartitionKey\":\"Events\",\"RowKey\":\"a\"}\n{\"PartitionKey\":\n".write(
            toFile: scratch.file("bad.ndjson"),
            atomically: true,
            encoding: .utf8
        )
        let malformed = try await BuiltTool.validate.run(["bad.ndjson", "--output", "report.txt"], in: scratch.path)
        #expect(malformed.status == 65, "\(malformed)")
        #expect(malformed.stderr.hasPrefix("validate: error: bad.ndjson:2:"), "\(malformed)")
        #expect(!fileExists(scratch.file("report.txt")))

        // A report that cannot be written: 73, after the data was checked.
        try FileManager.default.createDirectory(atPath: scratch.file("a-directory"), withIntermediateDirectories: true)
        try "PartitionKey,RowKey\r\n".write(toFile: scratch.file("empty.csv"), atomically: true, encoding: .utf8)
        let unwritable = try await BuiltTool.validate.run(["empty.csv", "--output", "a-directory"], in: scratch.path)
        #expect(unwritable.status == 73, "\(unwritable)")

        let help = try await BuiltTool.validate.run(["--help"], in: scratch.path)
        #expect(help.status == 0)
        #expect(help.stdout.contains("Examples:"))
        let version = try await BuiltTool.validate.run(["--version"], in: scratch.path)
        #expect(version.stdout == "0.1.0\n")
        let rules = try await BuiltTool.validate.run(["--list-rules"], in: scratch.path)
        #expect(rules.status == 0)
        #expect(rules.stdout.split(separator: "\n").count == Rule.allCases.count)
    }
}

/// `--max-errors` must never make a count look complete.
@Suite("validate --max-errors")
struct MaxErrorsTests {
    @Test("2,000 orphans with --max-errors 50: every report form says the counts are lower bounds")
    func orphans() async throws {
        let scratch = try Scratch()
        var lines = ["PartitionKey,RowKey,EventDate,EventName,EventLocation,EventDescription,SpeakerKey,SpeakerName"]
        for n in 0..<2_000 {
            let key = String(format: "e0000000-0000-4000-8000-%012d", n)
            let date = String(format: "2026-03-%02dT%02d:%02d:00.0000001Z", 1 + n / 1_440, n / 60 % 24, n % 60)
            lines.append(
                "Events,\(key),\(date),iOS Meetup,\"Chicago, IL\",Lorem.,99999999-0000-4000-8000-000000000000,Nobody"
            )
        }
        try (lines.joined(separator: "\r\n") + "\r\n").write(
            toFile: scratch.file("events.csv"),
            atomically: true,
            encoding: .utf8
        )

        let json = try await BuiltTool.validate.run(
            ["events.csv", "--max-errors", "50", "--report", "json"],
            in: scratch.path
        )
        #expect(json.status == 1, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["truncated"] as? Bool == true)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["errors"] as? Int == 50 && summary["exact"] as? Bool == false)
        #expect(json.stderr.contains("at least 50 errors in 2000 entities"), "\(json)")

        let text = try await BuiltTool.validate.run(["events.csv", "--max-errors", "50"], in: scratch.path)
        #expect(text.stdout.contains("validate: at least 50 errors in 2000 entities"), "\(text)")
        let junit = try await BuiltTool.validate.run(
            ["events.csv", "--max-errors", "50", "--report", "junit"],
            in: scratch.path
        )
        #expect(
            junit.stdout.contains("<testsuite name=\"max-errors\"") && junit.stdout.contains("lower bounds"),
            "\(junit)"
        )
        let sarif = try await BuiltTool.validate.run(
            ["events.csv", "--max-errors", "50", "--report", "sarif"],
            in: scratch.path
        )
        #expect(sarif.stdout.contains("\"truncated\": true") || sarif.stdout.contains("\"truncated\":true"), "\(sarif)")
        #expect(sarif.stdout.contains("lower bounds"), "\(sarif)")
        let github = try await BuiltTool.validate.run(
            ["events.csv", "--max-errors", "50", "--report", "github"],
            in: scratch.path
        )
        #expect(github.stdout.contains("::warning title=validate::validate stopped at --max-errors 50"), "\(github)")

        // Exactly the limit is a complete count.
        let exact = try await BuiltTool.validate.run(
            ["events.csv", "--max-errors", "2000", "--report", "json"],
            in: scratch.path
        )
        let exactObject = try #require(
            try JSONSerialization.jsonObject(with: Data(exact.stdout.utf8)) as? [String: Any]
        )
        #expect(exactObject["truncated"] as? Bool == false)
        #expect((exactObject["summary"] as? [String: Any])?["errors"] as? Int == 2000)
    }

    @Test("control characters in the data are escaped in a finding's message: one line in text and JSON")
    func controlCharactersInMessages() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let exported = try await BuiltTool.export.run(
            ["--store", store, "--to", "all.ndjson", "--quiet"],
            in: scratch.path
        )
        try #require(exported.status == 0, "\(exported)")
        var lines = try String(contentsOfFile: scratch.file("all.ndjson"), encoding: .utf8).components(
            separatedBy: "\n"
        )
        let event = try #require(lines.firstIndex { $0.contains("\"PartitionKey\":\"Events\"") })
        // A SpeakerName with a line break and a terminal escape: the reference check quotes it.
        let name = try NSRegularExpression(pattern: "\"SpeakerName\":\"[^\"]*\"")
        lines[event] = name.stringByReplacingMatches(
            in: lines[event],
            range: NSRange(lines[event].startIndex..., in: lines[event]),
            withTemplate: "\"SpeakerName\":\"Line1\\\\nLine2\\\\u001B[31m\""
        )
        try lines.joined(separator: "\n").write(toFile: scratch.file("odd.ndjson"), atomically: true, encoding: .utf8)

        let text = try await BuiltTool.validate.run(["odd.ndjson"], in: scratch.path)
        #expect(text.status == 1, "\(text)")
        let finding = try #require(
            text.stdout.split(separator: "\n").first { $0.contains("SpeakerName 'Line1") },
            "\(text)"
        )
        #expect(finding.contains("SpeakerName 'Line1\\nLine2\\u{1B}[31m' is not the Name of speaker"), "\(finding)")
        #expect(!text.stdout.contains("\u{1B}"), "\(text)")

        let json = try await BuiltTool.validate.run(["odd.ndjson", "--report", "json"], in: scratch.path)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let messages = try #require(object["findings"] as? [[String: Any]]).compactMap { $0["message"] as? String }
        let message = try #require(messages.first { $0.contains("Line1") }, "\(messages)")
        #expect(message.contains("'Line1\\nLine2\\u{1B}[31m'") && !message.contains("\n"), "\(message)")
    }
}
