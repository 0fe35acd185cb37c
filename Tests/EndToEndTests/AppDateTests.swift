import Foundation
import SpeakEasyData
import Testing

/// The app's date bug, end to end: the app needs seven fractional digits, Azure trims trailing
/// zeros when it serves a date. `seed` writes only dates that survive that by default; `validate`
/// judges every date as it will be served.
@Suite("the app's dates as Azure serves them")
struct AppDateTests {
    @Test(
        "seed writes each step plus one tick; --date-format azure writes the grid itself, whole seconds, which validate reports with the served form"
    )
    func seedAndValidate() async throws {
        let scratch = try Scratch()
        let store = try await SeedTool.seededStore(scratch)
        let clean = try await BuiltTool.validate.run(["--store", store], in: scratch.path)
        #expect(clean.status == 0, "\(clean)")
        let exported = try await BuiltTool.export.run(
            ["--store", store, "--partition", "Events", "--format", "ndjson", "--quiet"],
            in: scratch.path
        )
        let dates = exported.stdout.split(separator: "\n").compactMap { line in
            line.range(of: #""EventDate":"[^"]*""#, options: .regularExpression).map { String(line[$0]) }
        }
        #expect(dates.count == 100)
        #expect(dates.allSatisfy { $0.hasSuffix(".0000001Z\"") }, "\(dates.prefix(3))")

        let grid = scratch.file("grid.sqlite")
        let seeded = try await SeedTool.run(
            [
                "--events", "100", "--from", "2026-01-01", "--seed", "42", "--date-format", "azure", "--store", grid,
                "--quiet",
            ],
            in: scratch.path
        )
        #expect(seeded.status == 0, "\(seeded)")
        let report = try await BuiltTool.validate.run(["--store", grid, "--report", "json"], in: scratch.path)
        #expect(report.status == 1, "\(report)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 100)
        #expect(findings.allSatisfy { $0["rule"] as? String == "dates.format" })
        let message = try #require(findings.first?["message"] as? String)
        let expected =
            #"EventDate '\d{4}-\d\d-\d\dT\d\d:\d\d:00\.0000000Z' lies on a whole second, so Azure serves it as '\d{4}-\d\d-\d\dT\d\d:\d\d:00Z', which the app's date pattern refuses: the event shows no date"#
        #expect(message.range(of: expected, options: .regularExpression) != nil, "\(message)")
        let azure = try await BuiltTool.validate.run(["--store", grid, "--date-format", "azure"], in: scratch.path)
        #expect(azure.status == 0, "\(azure)")
    }

    @Test(
        "in a file, only the whole second is a date the app refuses as served; exact7 also reports the dates Azure serves short"
    )
    func files() async throws {
        let scratch = try Scratch()
        let speaker = "1b7d3d6f-2c8f-4c9f-8d2b-7a1f3e4d5c6b"
        func line(_ key: Int, _ date: String) -> String {
            #"{"PartitionKey":"Events","RowKey":"e0000000-0000-4000-8000-00000000000\#(key)","EventDate@odata.type":"Edm.DateTime","EventDate":"\#(date)","EventName":"iOS Meetup","EventLocation":"Chicago, IL","EventDescription":"Lorem.","SpeakerKey":"\#(speaker)","SpeakerName":"Darya Orlova"}"#
        }
        let lines = [
            #"{"PartitionKey":"speakers","RowKey":"\#(speaker)","Name":"Darya Orlova","Title":"Consultant","Bio":"Darya.","ImageUrl":"http://127.0.0.1:10000/devstoreaccount1/speakers/DOrlova.jpg"}"#,
            line(1, "2026-03-01T09:30:00.1234567Z"), line(2, "2026-03-01T09:31:00.1234560Z"),
            line(3, "2026-03-01T09:32:00.123456Z"),
            line(4, "2026-03-01T09:33:00Z"),
        ]
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: scratch.file("events.ndjson"),
            atomically: true,
            encoding: .utf8
        )
        let app = try await BuiltTool.validate.run(["events.ndjson", "--report", "github"], in: scratch.path)
        #expect(app.status == 1, "\(app)")
        let refused = app.stdout.split(separator: "\n").filter { $0.hasPrefix("::error") }
        #expect(refused.count == 1, "\(app)")
        #expect(
            refused.first?.contains("line=5") == true
                && refused.first?.contains("lies on a whole second and has no fraction") == true,
            "\(app)"
        )

        let result = try await BuiltTool.validate.run(
            ["events.ndjson", "--report", "github", "--date-format", "exact7"],
            in: scratch.path
        )
        #expect(result.status == 1, "\(result)")
        let annotations = result.stdout.split(separator: "\n").filter { $0.hasPrefix("::error") }
        #expect(annotations.count == 3, "\(result)")
        #expect(
            annotations.contains {
                $0.contains("line=3") && $0.contains("Azure serves it as '2026-03-01T09:31:00.123456Z'")
            },
            "\(result)"
        )
        #expect(
            annotations.contains { $0.contains("line=4") && $0.contains("6 fractional digits, not 7") },
            "\(result)"
        )
        #expect(annotations.contains { $0.contains("line=5") && $0.contains("no fractional digits") }, "\(result)")
    }

    @Test("seed refuses a window before 1601, which Azure and validate refuse, and creates nothing")
    func before1601() async throws {
        let scratch = try Scratch()
        let result = try await SeedTool.run(["--from", "1500-01-01", "--store", "old.sqlite"], in: scratch.path)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("1601"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("old.sqlite")))
    }

    @Test("seed refuses more events than memory can hold, with the estimate, and creates nothing")
    func tooManyEvents() async throws {
        let scratch = try Scratch()
        let result = try await SeedTool.run(
            ["--events", "2000000000", "--resolution", "second", "--store", "big.sqlite"],
            in: scratch.path
        )
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("memory") && result.stderr.contains("GiB"), "\(result)")
        #expect(!result.stderr.contains("Fatal error"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: scratch.file("big.sqlite")))
    }

    @Test("a seeded store passes validate with every rule on, over random options")
    func seededStoresAreValid() async throws {
        var random = SystemRandomNumberGenerator()
        let scratch = try Scratch()
        for run in 0..<4 {
            let resolution = DateResolution.allCases[Int.random(in: 0..<DateResolution.allCases.count, using: &random)]
            let year = Int.random(in: 1601...9990, using: &random)
            let days = Int.random(in: 1...800, using: &random)
            // One speaker, one date a day: at least 32 distinct events (4 names any day × 8 locations; the 2 named weekdays add more).
            let events = min(days * 32, Int.random(in: 0...400, using: &random))
            let arguments = [
                "--seed", String(UInt64.random(in: 0...UInt64.max, using: &random)), "--events", String(events),
                "--speakers", String(Int.random(in: 1...40, using: &random)), "--from", "\(year)-01-01",
                "--cutoff",
                String(
                    try #require(
                        EdmDateTime(ticks: EdmDateTime.at(year: year).ticks + Int64(days) * EdmDateTime.ticksPerDay)
                    ).description.prefix(10)
                ),
                "--resolution", resolution.rawValue, "--store", "random-\(run).sqlite", "--quiet",
            ]
            let seeded = try await SeedTool.run(arguments, in: scratch.path)
            #expect(seeded.status == 0, "\(arguments) \(seeded)")
            let validated = try await BuiltTool.validate.run(
                ["--store", "random-\(run).sqlite", "--warnings-as-errors"],
                in: scratch.path
            )
            #expect(validated.status == 0, "\(arguments) \(validated)")
        }
    }
}

extension EdmDateTime {
    fileprivate static func at(year: Int) -> EdmDateTime { EdmDateTime(year: year, month: 1, day: 1) ?? .min }
}
