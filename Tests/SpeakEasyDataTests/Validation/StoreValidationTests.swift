import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// `validate --store` against a seeded local account, with defects injected through plain SQL.
@Suite("store validation")
struct StoreValidationTests {
    /// Calls `body` with a fresh account of 8 speakers and 100 events (seed 42) and a plain SQL
    /// connection to it, for injecting defects.
    static func withSeededStore(_ body: (_ path: String, _ sql: RawSQLite) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            try await seed(path)
            try await body(path, try RawSQLite(path: path))
        }
    }

    /// Seeds 8 speakers and 100 events (seed 42) into a fresh account at `path`.
    private static func seed(_ path: String) async throws {
        let catalog = try SampleCatalog(directory: TestPaths.samples)
        var request = SeedRequest()
        request.seed = 42
        request.from = .at("2026-01-01T00:00:00Z")
        let store = try StorageLocation.local(path: path).open(readOnly: false)
        _ = try await Seeder(catalog: catalog, request: request).run(
            store: store,
            photoBaseURL: StorageLocation.localBlobEndpoint + DataContract.photoContainer + "/"
        )
    }

    static func validate(
        _ path: String,
        options: ValidationOptions = ValidationOptions()
    ) async throws -> ValidationReport {
        try await StoreValidation.run(try StorageLocation.local(path: path).open(readOnly: true), options: options)
    }

    /// The n-th event's RowKey in key order.
    static func eventKey(_ sql: RawSQLite, _ n: Int) throws -> String {
        try sql.rows(
            "SELECT row_key FROM entities WHERE table_name = 'events' AND partition_key = 'Events' ORDER BY row_key LIMIT 1 OFFSET \(n)"
        )[0][0]!
    }

    static func eventLocation(_ rowKey: String) -> FindingLocation {
        FindingLocation(.table("events"), partitionKey: "Events", rowKey: rowKey)
    }

    @Test("a freshly seeded account is clean, every rule ran")
    func clean() async throws {
        try await Self.withSeededStore { path, _ in
            let report = try await Self.validate(path)
            #expect(report.findings.isEmpty, "\(report.findings)")
            #expect(report.entitiesChecked == 108)
            #expect(report.rules.map(\.id) == Rule.allCases.map(\.id))
            #expect(report.inputs == [path])
        }
    }

    @Test("defects injected through SQL are all found, located in the table and the container")
    func injected() async throws {
        try await Self.withSeededStore { path, sql in
            let trimmed = try Self.eventKey(sql, 0)
            let orphan = try Self.eventKey(sql, 1)
            let copied = try Self.eventKey(sql, 5)
            let bart = try sql.rows(
                "SELECT row_key FROM entities WHERE partition_key = 'speakers' AND json_extract(properties, '$.Name') = 'Bart Tubalinal'"
            )[0][0]!
            let mismatch = try sql.rows(
                "SELECT row_key FROM entities WHERE partition_key = 'Events' AND json_extract(properties, '$.SpeakerKey') = '\(bart)' AND row_key NOT IN ('\(trimmed)', '\(orphan)', '\(copied)') ORDER BY row_key LIMIT 1"
            )[0][0]!
            // The orphan keeps its SpeakerName: the finding points at the speaker of that name.
            let named = try sql.rows(
                "SELECT s.row_key FROM entities s, entities e WHERE s.partition_key = 'speakers' AND e.row_key = '\(orphan)' AND json_extract(s.properties, '$.Name') = json_extract(e.properties, '$.SpeakerName')"
            )[0][0]!
            let duplicate = "ffffffff-0000-4000-8000-000000000000"
            try sql.execute(
                """
                UPDATE entities SET properties = json_set(properties, '$.EventDate', '2026-03-01T09:30:00Z') WHERE row_key = '\(trimmed)';
                UPDATE entities SET properties = json_set(properties, '$.SpeakerKey', '00000000-0000-4000-8000-000000000000') WHERE row_key = '\(orphan)';
                UPDATE entities SET properties = json_set(properties, '$.SpeakerName', 'Bart Tubalnal') WHERE row_key = '\(mismatch)';
                INSERT INTO entities SELECT table_name, partition_key, '\(duplicate)', timestamp, etag, properties FROM entities WHERE row_key = '\(copied)';
                UPDATE blobs SET content_type = 'text/plain' WHERE name = 'BTubalinal.jpg';
                INSERT INTO blobs (container, name, content_type, content_md5, size, etag, last_modified, data) SELECT container, 'extra.png', content_type, content_md5, size, etag, last_modified, data FROM blobs WHERE name = 'DOrlova.jpg';
                DELETE FROM blobs WHERE name = 'MMorse.jpg';
                UPDATE containers SET public_access = 'private';
                """
            )
            let morse = try sql.rows(
                "SELECT row_key FROM entities WHERE partition_key = 'speakers' AND json_extract(properties, '$.Name') = 'Matt Morse'"
            )[0][0]!
            let bartLocation = FindingLocation(.table("events"), partitionKey: "speakers", rowKey: bart)
            let manifest = FindingLocation(.table("seedmanifest"), partitionKey: "events", rowKey: "latest")
            let container = FindingLocation(.container("speakers", blob: nil))

            let report = try await Self.validate(path)
            let found = report.findings.map { "\($0.rule) \($0.location) \($0.related)" }
            let expected: [(String, FindingLocation, [FindingLocation])] = [
                ("dates.format", Self.eventLocation(trimmed), []),
                ("references.name-mismatch", Self.eventLocation(mismatch), [bartLocation]),
                ("duplicates.events", Self.eventLocation(duplicate), [Self.eventLocation(copied)]),
                (
                    "references.orphan", Self.eventLocation(orphan),
                    [FindingLocation(.table("events"), partitionKey: "speakers", rowKey: named)]
                ),
                ("photos.access", container, []),
                (
                    "photos.content-type", FindingLocation(.container("speakers", blob: "BTubalinal.jpg")),
                    [bartLocation]
                ),
                (
                    "photos.missing", FindingLocation(.table("events"), partitionKey: "speakers", rowKey: morse),
                    [container]
                ),
                ("photos.unused", FindingLocation(.container("speakers", blob: "extra.png")), []),
                ("manifest.counts", manifest, []),
                ("manifest.hash", manifest, []),
            ]
            // Photos follow the speakers' key order; compare as sets where the order is the store's.
            #expect(Set(found) == Set(expected.map { "\($0.0) \($0.1) \($0.2)" }), "\(found)")
            #expect(found.count == expected.count)
            #expect(report.errorCount == 9)
            #expect(report.warningCount == 1)
        }
    }

    @Test("an interrupted seed's manifest is reported; a store without a manifest is not")
    func manifestStatus() async throws {
        try await Self.withSeededStore { path, sql in
            try sql.execute(
                "UPDATE entities SET properties = json_set(properties, '$.Status', 'in progress') WHERE table_name = 'seedmanifest'"
            )
            #expect(try await Self.validate(path).findings.map(\.rule) == ["manifest.incomplete"])
            try sql.execute("DELETE FROM entities WHERE table_name = 'seedmanifest'")
            #expect(try await Self.validate(path).findings.isEmpty)
        }
    }

    @Test("a missing photo container is one photos.access finding and a photos.missing per speaker")
    func missingContainer() async throws {
        try await Self.withSeededStore { path, sql in
            try sql.execute("DELETE FROM blobs; DELETE FROM containers;")
            let rules = try await Self.validate(path).findings.map(\.rule)
            #expect(rules == ["photos.access"] + Array(repeating: "photos.missing", count: 8))
        }
    }

    @Test("--max-errors stops the scan at the first finding past the limit; nothing after it is judged")
    func maxErrors() async throws {
        try await Self.withSeededStore { path, sql in
            try sql.execute(
                "UPDATE entities SET properties = json_set(properties, '$.EventDate', '2026-03-01T09:30:00Z') WHERE partition_key = 'Events'"
            )
            var options = ValidationOptions()
            options.maxErrors = 3
            let report = try await Self.validate(path, options: options)
            #expect(report.findings.map(\.rule) == ["dates.format", "dates.format", "dates.format"])
            #expect(report.truncated)
            #expect(report.entitiesChecked == 8 + 4)
            #expect(report.maxErrors == 3)
        }
    }
}
