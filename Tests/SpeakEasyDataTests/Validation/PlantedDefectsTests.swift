import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// One of each defect a file can have, in every input format: the complete findings, ids and
/// locations (both sides where there are two), are asserted.
@Suite("planted defects")
struct PlantedDefectsTests {
    typealias D = ValidationData

    static func key(_ n: Int) -> String { "e0000000-0000-4000-8000-0000000000" + (n < 10 ? "0\(n)" : "\(n)") }
    static func date(_ day: Int) -> String { "2026-03-\(day < 10 ? "0\(day)" : "\(day)")T09:30:00.0000001Z" }

    /// The entities, in file order; Darya's speaker entity comes after the events that name her.
    static var entities: [Entity] {
        var extra = D.event(key(15), date: date(15))
        for n in 0..<247 { extra.properties.append(Property("Extra\(n)", .int32(Int32(n)))) }
        return [
            D.speaker(D.bartKey, "Bart Tubalinal", photo: "BTubalinal.jpg"),  // 0
            D.event(key(1), date: date(1)),  // 1 clean
            D.event(key(2), date: date(2)).setting("EventDate", nil),  // 2 dates.missing
            D.event(key(3), date: "2026-03-03T09:30:00.0000000Z"),  // 3 dates.format: a whole second, served as …:00Z
            D.event(key(4), date: "2027-06-01T00:00:00.0000001Z"),  // 4 dates.range (after --cutoff)
            D.event(key(5), date: "1600-06-01T00:00:00.0000001Z"),  // 5 dates.before-1601
            D.event(
                key(6),
                date: date(6),
                speakerKey: "99999999-0000-4000-8000-000000000000",
                speakerName: "Nobody Known"
            ),  // 6 orphan
            // 7 name mismatch, speaker later
            D.event(key(7), date: date(7), speakerKey: D.daryaKey, speakerName: "Darya Orlva"),
            D.event(key(1), date: date(1), location: "Boston, MA"),  // 8 duplicates.keys with 1
            D.event(key(9), date: date(1)),  // 9 duplicates.events with 1
            D.event(key(10), date: date(10)).setting("SpeakerName", nil),  // 10 contract.required
            D.event(key(11), date: date(11)).setting("EventName", .int32(7)),  // 11 contract.type
            D.event(key(12), date: date(12)).withKeys("events"),  // 12 contract.partition
            D.event("event-13", date: date(13)),  // 13 contract.rowkey-guid
            D.event("a#b", date: date(14)),  // 14 contract.key-chars (and not a GUID)
            extra,  // 15 contract.entity-size (253 properties), so contract.unknown-property too
            D.speaker(D.daryaKey, "Darya Orlova", photo: "DOrlova.jpg"),  // 16
        ]
    }

    /// (rule, entity, related entities), in the order the one pass finds them: references whose
    /// speaker came later are judged at the end.
    static let expected: [(String, Int, [Int])] = [
        ("dates.missing", 2, []), ("dates.format", 3, []), ("dates.range", 4, []), ("dates.before-1601", 5, []),
        ("duplicates.keys", 8, [1]), ("duplicates.events", 9, [1]), ("contract.required", 10, []),
        ("contract.type", 11, []),
        ("contract.partition", 12, []), ("contract.rowkey-guid", 13, []), ("contract.key-chars", 14, []),
        ("contract.rowkey-guid", 14, []),
        // No event can have 253 properties that the contract names: too many is also unknown ones.
        ("contract.entity-size", 15, []), ("contract.unknown-property", 15, []), ("references.orphan", 6, []),
        ("references.name-mismatch", 7, [16]),
    ]

    static var options: ValidationOptions {
        var options = ValidationOptions()
        options.cutoff = .at("2026-12-31T23:59:59.9999999Z")
        return options
    }

    /// The file's bytes: written by the library's formatter, then the one date trimmed as Azure
    /// returns it (no formatter writes `.2Z`).
    static func file(_ format: DataFormat) throws -> [UInt8] {
        var options = EntityFiles.WriteOptions(format: format)
        options.typedCSV = true
        let text = String(decoding: try EntityFiles.bytes(of: entities, options: options), as: UTF8.self)
        return Array(text.replacingOccurrences(of: "2026-03-03T09:30:00.2000000Z", with: "2026-03-03T09:30:00.2Z").utf8)
    }

    /// The line each entity starts on, found in the text independently of the readers.
    static func startLines(_ bytes: [UInt8], _ format: DataFormat) -> [Int] {
        // Split on the byte: in a Swift String "\r\n" is one Character.
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        switch format {
        case .csv: return Array(2...lines.count).filter { !lines[$0 - 1].isEmpty }
        case .atom:
            return lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("<entry") }.map {
                $0 + 1
            }
        case .json, .ndjson:
            return lines.indices.flatMap { index in
                Array(repeating: index + 1, count: lines[index].components(separatedBy: "{\"PartitionKey\"").count - 1)
            }
        }
    }

    @Test("every defect found once, where it is", arguments: [DataFormat.csv, .json, .ndjson, .atom])
    func planted(format: DataFormat) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/planted." + format.rawValue
            let bytes = try Self.file(format)
            try writeFile(path, bytes)
            let lines = Self.startLines(bytes, format)
            let entities = Self.entities
            try #require(lines.count == entities.count, "\(lines)")
            func location(_ index: Int) -> FindingLocation {
                FindingLocation(
                    .file(path: path, line: lines[index]),
                    partitionKey: entities[index].partitionKey,
                    rowKey: entities[index].rowKey
                )
            }
            let report = try await FileValidation.run([path], options: Self.options)
            let expected = Self.expected.map { rule, index, related in
                "\(rule) \(location(index)) \(related.map(location))"
            }
            let found = report.findings.map { "\($0.rule) \($0.location) \($0.related)" }
            #expect(found == expected)
            #expect(report.findings.map(\.location) == Self.expected.map { location($0.1) })
            #expect(report.findings.map(\.related) == Self.expected.map { $0.2.map(location) })
            #expect(report.entitiesChecked == entities.count)
            #expect(report.errorCount == Self.expected.count - 3)
            #expect(report.warningCount == 3)
            #expect(!report.truncated)
        }
    }

    @Test("speakers in a second file, read after the events, resolve the references")
    func speakersInLaterFile() async throws {
        try await withTemporaryDirectory { directory in
            let events = D.clean.filter { $0.partitionKey == "Events" }
            let speakers = D.clean.filter { $0.partitionKey == "speakers" }
            try writeFile(
                directory + "/events.csv",
                try EntityFiles.bytes(of: events, options: EntityFiles.WriteOptions(format: .csv))
            )
            try writeFile(
                directory + "/speakers.json",
                try EntityFiles.bytes(of: speakers, options: EntityFiles.WriteOptions(format: .json))
            )
            let report = try await FileValidation.run(
                [directory + "/events.csv", directory + "/speakers.json"],
                options: ValidationOptions()
            )
            #expect(report.findings.isEmpty, "\(report.findings)")
            #expect(report.entitiesChecked == 5)
            let alone = try await FileValidation.run([directory + "/events.csv"], options: ValidationOptions())
            #expect(alone.findings.map(\.rule) == ["references.orphan", "references.orphan", "references.orphan"])
            #expect(
                alone.findings.map(\.location.place)
                    == [2, 3, 4].map { .file(path: directory + "/events.csv", line: $0) }
            )
        }
    }

    @Test("a malformed file is an error with its line, not a finding")
    func malformed() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/bad.ndjson"
            try writeFile(path, "{\"PartitionKey\":\"Events\",\"RowKey\":\"a\"}\n{\"PartitionKey\":\"Events\",\n")
            do {
                _ = try await FileValidation.run([path], options: ValidationOptions())
                Issue.record("a malformed file was accepted")
            } catch let error as FormatError {
                #expect(error.source == path && error.line == 2 && error.kind == .malformedInput, "\(error)")
            }
            do {
                _ = try await FileValidation.run([directory + "/missing.csv"], options: ValidationOptions())
                Issue.record("a missing file was accepted")
            } catch let error as FormatError {
                #expect(error.kind == .inputMissing, "\(error)")
            }
        }
    }
}
