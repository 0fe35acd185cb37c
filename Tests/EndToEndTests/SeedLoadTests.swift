import Foundation
import SpeakEasyData
import TestServer
import Testing

/// Data files in the shape the issue met them: a speaker, and events the app cannot all read.
enum LoadData {
    static let speakerKey = "bdd73226-2feb-4e95-a8ef-e333b266f103"
    static let header = "PartitionKey,RowKey,Name,Title,Bio,ImageUrl,EventDate,EventName,EventLocation,EventDescription,SpeakerKey,SpeakerName"

    /// One speaker whose photo is `http://127.0.0.1:10000/<account>/speakers/<photo>`.
    static func speaker(_ key: String = speakerKey, name: String = "Bart Tubalinal", photo: String = "BTubalinal.jpg", account: String = "speakeasy") -> String {
        "speakers,\(key),\(name),Developer,Builds apps.,http://127.0.0.1:10000/\(account)/speakers/\(photo),,,,,,"
    }

    static func event(_ number: Int, date: String, speakerKey: String = speakerKey, speakerName: String = "Bart Tubalinal") -> String {
        "Events,e0000000-0000-4000-8000-00000000000\(number),,,,,\(date),Mobile Mondays,\"Chicago, IL\",Talks,\(speakerKey),\(speakerName)"
    }

    /// The CSV: a good event, then a date without fractional digits, one on a whole second,
    /// an unknown speaker key and a misspelt SpeakerName.
    static let brokenCSV =
        ([header, speaker(), event(1, date: "2026-07-01T04:34:00.0000001Z"), event(2, date: "2026-07-01T04:34:00Z"),
            event(3, date: "2026-07-02T18:30:00.0000000Z"), event(4, date: "2026-07-03T18:30:00.0000001Z", speakerKey: "0f000000-0000-4000-8000-000000000000"),
            event(5, date: "2026-07-04T18:30:00.0000001Z", speakerName: "Bart Tubalnal")]).joined(separator: "\r\n") + "\r\n"
}

@Suite("seed --from-file: validate's rules on what is loaded")
struct SeedLoadFindingsTests {
    @Test("findings are warnings with a summary and a pointer to validate; the load goes on")
    func warnings() async throws {
        let scratch = try Scratch()
        try LoadData.brokenCSV.write(toFile: scratch.file("broken.csv"), atomically: true, encoding: .utf8)
        let result = try await SeedTool.run(["--from-file", "broken.csv", "--store", "store.sqlite"], in: scratch.path, samples: nil)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Loaded into store.sqlite"), "\(result)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("seed: warning: broken.csv:") && $0.hasSuffix("]") }
        #expect(warnings.map { $0.split(separator: " ")[2] } == ["broken.csv:4", "broken.csv:5", "broken.csv:6", "broken.csv:7"], "in file order\n\(result)")
        #expect(result.stderr.contains("broken.csv:4 (Events/e0000000-0000-4000-8000-000000000002): EventDate '2026-07-01T04:34:00Z'"), "\(result)")
        #expect(result.stderr.contains("broken.csv:5 (Events/e0000000-0000-4000-8000-000000000003): EventDate '2026-07-02T18:30:00.0000000Z'"), "\(result)")
        for rule in ["[dates.format]", "[references.orphan]", "[references.name-mismatch]"] { #expect(result.stderr.contains(rule), "\(rule)\n\(result)") }
        #expect(
            result.stderr.contains(
                "seed: warning: broken.csv: 4 errors in 6 entities by validate's rules (dates.format 2, references.orphan 1, references.name-mismatch 1): "
                    + "the app may not read this data; loading it anyway (`validate broken.csv` lists every finding; --strict refuses such a load)"),
            "\(result)")
        #expect(try await StoreContents.read(scratch.file("store.sqlite")).counts == [DataContract.speakersPartition: 1, DataContract.eventsPartition: 5])

        // The pointer's command finds the same.
        let validated = try await BuiltTool.validate.run(["broken.csv"], in: scratch.path)
        #expect(validated.status == 1 && validated.stdout.contains("validate: 4 errors in 6 entities (broken.csv)"), "\(validated)")
    }

    @Test("--strict refuses the load (65) with the findings, and creates no store")
    func strict() async throws {
        let scratch = try Scratch()
        try LoadData.brokenCSV.write(toFile: scratch.file("broken.csv"), atomically: true, encoding: .utf8)
        let result = try await SeedTool.run(["--from-file", "broken.csv", "--store", "store.sqlite", "--strict"], in: scratch.path, samples: nil)
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.split(separator: "\n").filter { $0.hasPrefix("seed: error: broken.csv:") && $0.hasSuffix("]") }.count == 4, "\(result)")
        #expect(result.stderr.contains("seed: error: broken.csv: 4 errors in 6 entities by validate's rules"), "\(result)")
        #expect(result.stderr.contains("--strict loads none of it"), "\(result)")
        #expect(!fileExists(scratch.file("store.sqlite")))
        #expect(result.stdout.isEmpty, "\(result)")

        // Data the rules pass loads under --strict.
        let good = [LoadData.header, LoadData.speaker(), LoadData.event(1, date: "2026-07-01T04:34:00.0000001Z")].joined(separator: "\r\n") + "\r\n"
        try good.write(toFile: scratch.file("good.csv"), atomically: true, encoding: .utf8)
        let loaded = try await SeedTool.run(["--from-file", "good.csv", "--store", "store.sqlite", "--strict"], in: scratch.path, samples: nil)
        #expect(loaded.status == 0 && loaded.stderr.isEmpty, "\(loaded)")
    }

    @Test("an SDK dump's EventDate that is a string is a finding, not a quiet string")
    func stringDate() async throws {
        let scratch = try Scratch()
        let dump = """
            {"PartitionKey":"speakers","RowKey":"\(LoadData.speakerKey)","Name":"Bart Tubalinal","Title":"Developer","Bio":"Builds apps.","ImageUrl":"http://127.0.0.1:10000/speakeasy/speakers/BTubalinal.jpg"}
            {"PartitionKey":"Events","RowKey":"e0000000-0000-4000-8000-000000000001","EventDate":"2026-03-02 18:30:00+00:00","EventName":"Mobile Mondays","EventLocation":"Chicago, IL","EventDescription":"Talks","SpeakerKey":"\(LoadData.speakerKey)","SpeakerName":"Bart Tubalinal"}

            """
        try dump.write(toFile: scratch.file("sdk dump.ndjson"), atomically: true, encoding: .utf8)
        let result = try await SeedTool.run(["--from-file", "sdk dump.ndjson", "--store", "store.sqlite"], in: scratch.path, samples: nil)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("EventDate '2026-03-02 18:30:00+00:00' is Edm.String, not Edm.DateTime"), "\(result)")
        #expect(result.stderr.contains("[dates.missing]"), "\(result)")
        #expect(result.stderr.contains("(`validate 'sdk dump.ndjson'` lists every finding"), "\(result)")
    }
}

@Suite("CSV in another delimiter: seed --delimiter, and a hint in every tool")
struct DelimiterHintTests {
    /// What Excel writes in many European locales: a BOM, CRLF and ';'.
    static let excelEU = "\u{FEFF}" + LoadData.header.replacing(",", with: ";") + "\r\n" + "speakers;\(LoadData.speakerKey);Bart Tubalinal;Developer;Builds apps.;"
        + "http://127.0.0.1:10000/speakeasy/speakers/BTubalinal.jpg;;;;;;\r\n"

    @Test("seed, export and validate say the header looks ';'-separated; seed --delimiter ';' loads it")
    func excelEU() async throws {
        let scratch = try Scratch()
        try Self.excelEU.write(toFile: scratch.file("excel-eu.csv"), atomically: true, encoding: .utf8)
        let hint = "excel-eu.csv:1:1: the header looks ';'-separated: use --delimiter ';'"
        let seeded = try await SeedTool.run(["--from-file", "excel-eu.csv", "--store", "store.sqlite"], in: scratch.path, samples: nil)
        #expect(seeded.status == 65 && seeded.stderr.contains(hint), "\(seeded)")
        let exported = try await BuiltTool.export.run(["excel-eu.csv", "--to", "out.json"], in: scratch.path)
        #expect(exported.status == 65 && exported.stderr.contains(hint), "\(exported)")
        let validated = try await BuiltTool.validate.run(["excel-eu.csv"], in: scratch.path)
        #expect(validated.status == 65 && validated.stderr.contains(hint), "\(validated)")

        let loaded = try await SeedTool.run(["--from-file", "excel-eu.csv", "--delimiter", ";", "--store", "store.sqlite"], in: scratch.path, samples: nil)
        #expect(loaded.status == 0 && loaded.stderr.isEmpty, "\(loaded)")
        #expect(try await StoreContents.read(scratch.file("store.sqlite")).counts == [DataContract.speakersPartition: 1])

        let alone = try await SeedTool.run(["--delimiter", ";"], in: scratch.path, samples: nil)
        #expect(alone.status == 64, "\(alone)")
    }
}
