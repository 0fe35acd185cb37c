import Foundation
import SpeakEasyData
import Testing

/// The contract's verdict does not depend on the file format: the same entities, as JSON, NDJSON,
/// Atom, plain and typed CSV, and loaded into a store, get the same findings.
@Suite("validate: one verdict whatever the format")
struct ContractVerdictTests {
    static let bart = "0a6c2c5e-1b7e-4b8e-9c1a-6f0e2d3c4b5a"
    static let other = "1b7d3d6f-2c8f-4c9f-8d2b-7a1f3e4d5c6b"

    static func speaker(_ key: String, name: String, imageUrl: String) -> String {
        #"{"PartitionKey":"speakers","RowKey":"\#(key)","Name":"\#(name)","Title":"Consultant","Bio":"A bio.","ImageUrl":"\#(imageUrl)"}"#
    }

    static func event(_ n: Int, name: String = "iOS Meetup", speakerName: String = "Bart Tubalinal") -> String {
        #"{"PartitionKey":"Events","RowKey":"e0000000-0000-4000-8000-00000000000\#(n)","EventDate@odata.type":"Edm.DateTime","EventDate":"2026-03-0\#(n)T09:30:00.0000001Z","EventName":"\#(name)","EventLocation":"Chicago, IL","EventDescription":"Lorem.","SpeakerKey":"\#(bart)","SpeakerName":"\#(speakerName)"}"#
    }

    static let lines = [
        speaker(
            bart,
            name: "Bart Tubalinal",
            imageUrl: "http://127.0.0.1:10000/devstoreaccount1/speakers/BTubalinal.jpg"
        ),
        speaker(other, name: "Bart Tubalinal", imageUrl: "speakers/B2.jpg"),  // the same Name; a relative URL
        speaker("2c8e4e70-3d90-4da0-9e3c-8b2f4e5d6c7d", name: "Ela Gardner", imageUrl: ""),  // an empty ImageUrl
        event(1), event(2, name: ""), event(3, speakerName: "   "), event(4),
    ]

    /// (rule, RowKey) of every finding in a JSON report.
    static func findings(_ result: ProcessResult) throws -> [String] {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            "\(result)"
        )
        let findings = try #require(object["findings"] as? [[String: Any]])
        return findings.map {
            "\($0["rule"] as? String ?? "?") \((($0["location"] as? [String: Any])?["rowKey"] as? String) ?? "-")"
        }.sorted()
    }

    @Test(
        "blank strings, image URLs and one Name twice: the same findings from JSON, NDJSON, Atom, plain and typed CSV, and the store"
    )
    func sameFindings() async throws {
        let scratch = try Scratch()
        try (Self.lines.joined(separator: "\n") + "\n").write(
            toFile: scratch.file("data.ndjson"),
            atomically: true,
            encoding: .utf8
        )
        let expected = try Self.findings(
            try await BuiltTool.validate.run(["data.ndjson", "--report", "json"], in: scratch.path)
        )
        #expect(
            expected == [
                "contract.image-url \(Self.other)", "contract.required 2c8e4e70-3d90-4da0-9e3c-8b2f4e5d6c7d",
                "contract.required e0000000-0000-4000-8000-000000000002",
                "contract.required e0000000-0000-4000-8000-000000000003", "duplicates.speaker-names \(Self.other)",
            ]
        )
        for (file, extra) in [
            ("data.json", [String]()), ("data.atom", []), ("data.csv", []), ("data.typed.csv", ["--typed"]),
        ] {
            let exported = try await BuiltTool.export.run(
                ["data.ndjson", "--to", file, "--quiet"] + extra,
                in: scratch.path
            )
            #expect(exported.status == 0, "\(exported)")
            let validated = try await BuiltTool.validate.run([file, "--report", "json"], in: scratch.path)
            #expect(validated.status == 1, "\(validated)")
            #expect(try Self.findings(validated) == expected, "\(file)")
        }
        let loaded = try await SeedTool.run(
            ["--from-file", "data.ndjson", "--store", "store.sqlite", "--quiet"],
            in: scratch.path,
            samples: nil
        )
        #expect(loaded.status == 0, "\(loaded)")
        let store = try await BuiltTool.validate.run(
            ["--store", "store.sqlite", "--skip", "photos,manifest", "--report", "json"],
            in: scratch.path
        )
        #expect(try Self.findings(store) == expected)
    }
}
