import SpeakEasyData
import TestSupport
import Testing

/// Each rule against data that passes and data that fails it.
@Suite("validation rules")
struct RuleTests {
    typealias D = ValidationData

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// Changes the clean data set.
        var change: @Sendable ([Entity]) -> [Entity]
        var options: @Sendable (inout ValidationOptions) -> Void = { _ in }
        /// The rule ids expected, in order; [] for data that passes.
        var expected: [String]
        var testDescription: String { name }
    }

    static func replacing(
        _ index: Int,
        _ body: @escaping @Sendable (Entity) -> Entity
    ) -> @Sendable ([Entity]) -> [Entity] {
        { entities in
            var copy = entities
            copy[index] = body(copy[index])
            return copy
        }
    }

    static let cases: [Case] = [
        Case(name: "clean data", change: { $0 }, expected: []),
        // dates
        Case(
            name: "EventDate missing",
            change: replacing(2) { $0.setting("EventDate", nil) },
            expected: ["dates.missing"]
        ),
        Case(
            name: "EventDate a string",
            change: replacing(2) { $0.setting("EventDate", .string("2026-03-01T09:30:00.0000000Z")) },
            expected: ["dates.missing"]
        ),
        Case(
            name: "EventDate .2Z, which the app reads (app)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00.2Z"))) },
            expected: []
        ),
        Case(
            name: "EventDate .2Z (exact7)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00.2Z"))) },
            options: { $0.dateFormat = .exact7 },
            expected: ["dates.format"]
        ),
        Case(
            name: "EventDate on a whole second, no fraction (app)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00Z"))) },
            expected: ["dates.format"]
        ),
        Case(
            name: "EventDate on a whole second, seven zeros (app)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00.0000000Z"))) },
            expected: ["dates.format"]
        ),
        Case(
            name: "EventDate without Z (app)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00.0000000"))) },
            expected: ["dates.format"]
        ),
        Case(
            name: "EventDate 7 digits Z (app)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00.1234567Z"))) },
            expected: []
        ),
        Case(
            name: "EventDate 7 digits ending in 0, which Azure trims to 6 and the app reads (app)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00.1234560Z"))) },
            expected: []
        ),
        Case(
            name: "EventDate 7 digits ending in 0, which Azure trims to 6 (exact7)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00.1234560Z"))) },
            options: { $0.dateFormat = .exact7 },
            expected: ["dates.format"]
        ),
        Case(
            name: "EventDate 7 digits ending in 1 (exact7)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00.0000001Z"))) },
            options: { $0.dateFormat = .exact7 },
            expected: []
        ),
        Case(
            name: "EventDate 7 digits ending in 0 (azure)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00.0000000Z"))) },
            options: { $0.dateFormat = .azure },
            expected: []
        ),
        Case(
            name: "EventDate made from ticks, ending in 0 (app)",
            change: replacing(2) {
                $0.setting("EventDate", .dateTime(EdmDateTime(ticks: EdmDateTime.at("2026-03-01T09:30:00Z").ticks)!))
            },
            expected: ["dates.format"]
        ),
        Case(
            name: "EventDate .2Z (azure)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00.2Z"))) },
            options: { $0.dateFormat = .azure },
            expected: []
        ),
        Case(
            name: "EventDate without Z (azure)",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("2026-03-01T09:30:00"))) },
            options: { $0.dateFormat = .azure },
            expected: ["dates.format"]
        ),
        Case(
            name: "EventDate within --from/--cutoff",
            change: { $0 },
            options: {
                $0.from = .at("2026-03-01T09:30:00Z")
                $0.cutoff = .at("2026-04-01T18:00:00.0000001Z")
            },
            expected: []
        ),
        Case(
            name: "EventDate before --from",
            change: { $0 },
            options: { $0.from = .at("2026-03-02T00:00:00Z") },
            expected: ["dates.range", "dates.range"]
        ),
        Case(
            name: "EventDate after --cutoff",
            change: { $0 },
            options: { $0.cutoff = .at("2026-03-31T00:00:00Z") },
            expected: ["dates.range"]
        ),
        Case(
            name: "EventDate before 1601",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("1600-12-31T23:59:59.9999999Z"))) },
            expected: ["dates.before-1601"]
        ),
        Case(
            name: "EventDate on 1601-01-01",
            change: replacing(2) { $0.setting("EventDate", .dateTime(.written("1601-01-01T00:00:00.0000001Z"))) },
            expected: []
        ),
        // references
        Case(
            name: "SpeakerKey names no speaker",
            change: replacing(2) { $0.setting("SpeakerKey", .string("99999999-0000-4000-8000-000000000000")) },
            expected: ["references.orphan"]
        ),
        Case(
            name: "SpeakerName differs",
            change: replacing(2) { $0.setting("SpeakerName", .string("Bart Tubalnal")) },
            expected: ["references.name-mismatch"]
        ),
        Case(name: "speakers after the events", change: { Array($0[2...]) + Array($0[..<2]) }, expected: []),
        Case(
            name: "speakers after the events, name differs",
            change: {
                Array(
                    $0[2...].map { $0.rowKey.hasSuffix("1") ? $0.setting("SpeakerName", .string("Darya Orlova")) : $0 }
                ) + Array($0[..<2])
            },
            expected: ["references.name-mismatch"]
        ),
        // blank strings and photo URLs: judged from the data alone, in every format
        Case(
            name: "EventName empty",
            change: replacing(2) { $0.setting("EventName", .string("")) },
            expected: ["contract.required"]
        ),
        Case(
            name: "EventLocation only white space",
            change: replacing(2) { $0.setting("EventLocation", .string(" \t\u{00A0}")) },
            expected: ["contract.required"]
        ),
        Case(
            name: "SpeakerKey empty: reported once, no orphan",
            change: replacing(2) { $0.setting("SpeakerKey", .string("")) },
            expected: ["contract.required"]
        ),
        Case(
            name: "SpeakerName blank: no name mismatch",
            change: replacing(2) { $0.setting("SpeakerName", .string("  ")) },
            expected: ["contract.required"]
        ),
        Case(
            name: "a speaker's Name empty",
            change: replacing(0) { $0.setting("Name", .string("")) },
            expected: ["contract.required"]
        ),
        Case(
            name: "a speaker's ImageUrl empty",
            change: replacing(0) { $0.setting("ImageUrl", .string("")) },
            expected: ["contract.required"]
        ),
        Case(
            name: "a speaker's ImageUrl relative",
            change: replacing(0) { $0.setting("ImageUrl", .string("speakers/BTubalinal.jpg")) },
            expected: ["contract.image-url"]
        ),
        Case(
            name: "a speaker's ImageUrl ftp",
            change: replacing(0) { $0.setting("ImageUrl", .string("ftp://host/BTubalinal.jpg")) },
            expected: ["contract.image-url"]
        ),
        Case(
            name: "a speaker's ImageUrl without a host",
            change: replacing(0) { $0.setting("ImageUrl", .string("https:///BTubalinal.jpg")) },
            expected: ["contract.image-url"]
        ),
        Case(
            name: "a speaker's ImageUrl with a space",
            change: replacing(0) { $0.setting("ImageUrl", .string("https://host/B Tubalinal.jpg")) },
            expected: ["contract.image-url"]
        ),
        Case(
            name: "a speaker's ImageUrl in upper case HTTPS",
            change: replacing(0) { $0.setting("ImageUrl", .string("HTTPS://host/BTubalinal.jpg")) },
            expected: []
        ),
        Case(
            name: "two speakers with one Name",
            change: { $0 + [D.speaker("2c8e4e70-3d90-4da0-9e3c-8b2f4e5d6c7d", "Bart Tubalinal", photo: "B2.jpg")] },
            expected: ["duplicates.speaker-names"]
        ),
        // duplicates
        Case(
            name: "the same keys twice",
            change: { $0 + [D.event("e0000000-0000-4000-8000-000000000001", location: "Boston, MA")] },
            expected: ["duplicates.keys"]
        ),
        Case(
            name: "the same speaker keys twice",
            change: { $0 + [D.speaker(D.bartKey, "Bart Tubalinal", photo: "BTubalinal.jpg")] },
            expected: ["duplicates.keys"]
        ),
        Case(
            name: "the same event twice",
            change: { $0 + [D.event("e0000000-0000-4000-8000-000000000009")] },
            expected: ["duplicates.events"]
        ),
        Case(
            name: "the same event at another time",
            change: { $0 + [D.event("e0000000-0000-4000-8000-000000000009", date: "2026-03-01T09:30:00.0000003Z")] },
            expected: []
        ),
        // contract
        Case(
            name: "event without SpeakerName",
            change: replacing(2) { $0.setting("SpeakerName", nil) },
            expected: ["contract.required"]
        ),
        Case(
            name: "speaker without Bio",
            change: replacing(0) { $0.setting("Bio", nil) },
            expected: ["contract.required"]
        ),
        Case(
            name: "EventName an Int32",
            change: replacing(2) { $0.setting("EventName", .int32(7)) },
            expected: ["contract.type"]
        ),
        // No error: Azure stores them; but the app never reads them, which is worth a warning.
        Case(
            name: "extra properties are only a warning",
            change: replacing(2) { $0.setting("Room", .int32(7)) },
            expected: ["contract.unknown-property"]
        ),
        Case(
            name: "PartitionKey 'events'",
            change: replacing(2) { $0.withKeys("events") },
            expected: ["contract.partition"]
        ),
        Case(
            name: "RowKey not a GUID",
            change: replacing(2) { $0.withKeys(nil, "event-1") },
            expected: ["contract.rowkey-guid"]
        ),
        Case(
            name: "RowKey an upper-case GUID",
            change: replacing(2) { $0.withKeys(nil, "E0000000-0000-4000-8000-000000000001") },
            expected: ["contract.rowkey-guid"]
        ),
        Case(
            name: "RowKey with '#'",
            change: replacing(2) { $0.withKeys(nil, "a#b") },
            expected: ["contract.key-chars", "contract.rowkey-guid"]
        ),
        Case(
            name: "RowKey with a control character",
            change: replacing(2) { $0.withKeys(nil, "a\u{1}b") },
            expected: ["contract.key-chars", "contract.rowkey-guid"]
        ),
        Case(
            name: "RowKey with a C1 control character",
            change: replacing(2) { $0.withKeys(nil, "a\u{85}b") },
            expected: ["contract.key-chars", "contract.rowkey-guid"]
        ),
        Case(
            name: "RowKey over 1 KiB",
            change: replacing(2) { $0.withKeys(nil, String(repeating: "k", count: 513)) },
            expected: ["contract.key-chars", "contract.rowkey-guid"]
        ),
        Case(
            name: "RowKey of 1 KiB",
            change: replacing(2) { $0.withKeys(nil, String(repeating: "k", count: 512)) },
            expected: ["contract.rowkey-guid"]
        ),
        Case(
            name: "entity over 1 MiB",
            change: replacing(2) { $0.setting("Blob", .binary([UInt8](repeating: 1, count: 1 << 20))) },
            // Blob is no property of the contract's events, either.
            expected: ["contract.entity-size", "contract.unknown-property"]
        ),
        Case(
            name: "253 properties",
            change: replacing(2) { e in (0..<247).reduce(e) { $0.setting("P\($1)", .int32(1)) } },
            expected: ["contract.entity-size", "contract.unknown-property"]
        ),
        Case(
            name: "252 properties",
            change: replacing(2) { e in (0..<246).reduce(e) { $0.setting("P\($1)", .int32(1)) } },
            // Within Azure's limit, but none of them is the contract's.
            expected: ["contract.unknown-property"]
        ),
        // properties the contract does not name for the partition
        Case(
            name: "an event with another property",
            change: replacing(2) { $0.setting("Room", .string("7")) },
            expected: ["contract.unknown-property"]
        ),
        Case(
            name: "a speaker with an event's property, an empty string (a quoted empty CSV cell)",
            change: replacing(0) { $0.setting("EventName", .string("")) },
            expected: ["contract.unknown-property"]
        ),
        Case(
            name: "an event with a speaker's properties",
            change: replacing(2) { $0.setting("Name", .string("x")).setting("Bio", .string("y")) },
            expected: ["contract.unknown-property"]
        ),
        Case(
            name: "another partition's entity may have any property",
            change: { $0 + [Entity(partitionKey: "Rooms", rowKey: "r1", properties: [Property("Seats", .int32(9))])] },
            options: { $0.rules = [.contractUnknownProperty] },
            expected: []
        ),
    ]

    @Test("an unknown property's finding names it, and says when it is an empty string")
    func unknownPropertyMessage() throws {
        var entities = D.clean
        entities[0] = entities[0].setting("EventName", .string("")).setting("EventDate", .string(""))
        entities[2] = entities[2].setting("Room", .string("7"))
        let findings = D.validate(entities).findings
        #expect(findings.map(\.rule) == ["contract.unknown-property", "contract.unknown-property"])
        #expect(
            findings[0].message
                == "speaker has EventName and EventDate, which the contract does not name for speakers: the app never reads them (empty strings: in plain CSV a quoted empty cell, \"\", is one)"
        )
        #expect(
            findings[1].message == "event has Room, which the contract does not name for events: the app never reads it"
        )
        #expect(findings.allSatisfy { $0.severity == .warning })
    }

    @Test("rule", arguments: cases)
    func rule(_ testCase: Case) {
        var options = ValidationOptions()
        testCase.options(&options)
        let report = D.validate(testCase.change(D.clean), options: options)
        #expect(report.findings.map(\.rule) == testCase.expected, "\(report.findings.map(\.message))")
        #expect(report.findings.allSatisfy { Rule(rawValue: $0.rule)?.severity == $0.severity })
    }

    @Test("a name mismatch hints at the nearest speaker name and locates the speaker")
    func mismatchHint() throws {
        var entities = D.clean
        entities[2] = entities[2].setting("SpeakerName", .string("Darya Orlva"))
        let finding = try #require(D.validate(entities).findings.first)
        #expect(finding.rule == "references.name-mismatch")
        #expect(finding.message.contains("'Darya Orlova'"), "\(finding.message)")
        #expect(
            finding.location
                == FindingLocation(
                    .file(path: "data.ndjson", line: 3),
                    partitionKey: "Events",
                    rowKey: "e0000000-0000-4000-8000-000000000001"
                )
        )
        #expect(
            finding.related == [
                FindingLocation(.file(path: "data.ndjson", line: 1), partitionKey: "speakers", rowKey: D.bartKey)
            ]
        )
    }

    /// A fuzz finding: the hint was the nearest of the speakers read so far, so it changed with where
    /// the speakers stood in the file (the validate target checks them first, last and in file order).
    @Test("the nearest speaker name is that of all speakers, wherever they come in the file")
    func mismatchHintAfterAllSpeakers() throws {
        var entities = D.clean
        entities[2] = entities[2].setting("SpeakerName", .string("Darya Orlva"))
        let named = entities.filter { $0.partitionKey == DataContract.speakersPartition && $0.rowKey == D.bartKey }
        let others = entities.filter { !($0.partitionKey == DataContract.speakersPartition && $0.rowKey == D.bartKey) }
        let events = others.filter { $0.partitionKey == DataContract.eventsPartition }
        let otherSpeakers = others.filter { $0.partitionKey != DataContract.eventsPartition }
        // The speaker the event names comes first; the one it meant comes after the event.
        let finding = try #require(
            D.validate(named + events + otherSpeakers).findings.first { $0.rule == "references.name-mismatch" }
        )
        #expect(finding.message.hasSuffix("; the nearest speaker name is 'Darya Orlova'"), "\(finding.message)")
    }

    @Test("both occurrences of a duplicate are located")
    func duplicateLocations() throws {
        let report = D.validate(D.clean + [D.event("e0000000-0000-4000-8000-000000000009")])
        let finding = try #require(report.findings.first)
        #expect(finding.location.place == .file(path: "data.ndjson", line: 6))
        #expect(
            finding.related == [
                FindingLocation(
                    .file(path: "data.ndjson", line: 3),
                    partitionKey: "Events",
                    rowKey: "e0000000-0000-4000-8000-000000000001"
                )
            ]
        )
    }

    @Test("--rule and --skip choose rules; groups name all their rules")
    func selection() {
        var entities = D.clean
        entities[2] = entities[2].setting("EventDate", .dateTime(.written("2026-03-01T09:30:00Z"))).setting(
            "SpeakerName",
            .string("X")
        )
        var options = ValidationOptions()
        options.rules = Set(Rule.matching("references"))
        #expect(D.validate(entities, options: options).findings.map(\.rule) == ["references.name-mismatch"])
        options.rules = Set(Rule.allCases).subtracting([.referencesNameMismatch])
        #expect(D.validate(entities, options: options).findings.map(\.rule) == ["dates.format"])
        #expect(Rule.matching("dates").count == 4)
        #expect(Rule.matching("nope").isEmpty)
    }

    @Test("--max-errors stops the run; warnings count only with --warnings-as-errors")
    func maxErrors() {
        let broken = D.clean.map {
            $0.partitionKey == "Events" ? $0.setting("EventDate", nil).withKeys(nil, "k" + $0.rowKey.suffix(1)) : $0
        }
        var options = ValidationOptions()
        options.maxErrors = 2
        let report = D.validate(broken, options: options)
        #expect(report.errorCount == 2)
        #expect(report.warningCount == 1)
        #expect(report.truncated)
        options.warningsAsErrors = true
        let strict = D.validate(broken, options: options)
        #expect(strict.findings.map(\.rule) == ["dates.missing", "contract.rowkey-guid"])
    }

    @Test("every rule id is unique, has a summary, and a distinct bit")
    func catalog() {
        #expect(Set(Rule.allCases.map(\.id)).count == Rule.allCases.count)
        #expect(Set(Rule.allCases.map(\.bit)).count == Rule.allCases.count)
        #expect(Rule.allCases.allSatisfy { !$0.summary.isEmpty && $0.bit < 64 })
    }
}
