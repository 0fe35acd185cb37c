import Foundation
import SpeakEasyData
import Testing

/// Pins the generator: seed 42 must give these entities, byte for byte, on every machine and in every
/// later version. A deliberate change to the algorithm bumps `SeedGenerator.version` and the snapshot
/// is regenerated with `UPDATE_SNAPSHOTS=1 swift test --filter GoldenSeedTests`.
@Suite("Golden output for seed 42")
struct GoldenSeedTests {
    static let packageRoot = URL(fileURLWithPath: TestPaths.packageRoot)
    static let snapshot = packageRoot.appendingPathComponent("Tests/SpeakEasyDataTests/Snapshots/seed-42.tsv")

    /// One line per entity: PartitionKey, RowKey and the properties as stored (minimal-metadata JSON).
    static func render() throws -> String {
        let catalog = try SampleCatalog(directory: packageRoot.appendingPathComponent("samples").path)
        let options = GeneratorOptions(
            seed: 42,
            eventCount: 100,
            speakerCount: 10,
            from: try EdmDateTime(parsing: "2026-01-01T00:00:00Z"),
            cutoff: try EdmDateTime(parsing: "2027-01-01T00:00:00Z"),
            resolution: .minute,
            photoBaseURL: "http://127.0.0.1:10000/speakeasy/speakers/"
        )
        let generator = try SeedGenerator(catalog: catalog, options: options)
        var lines = [
            "# SeedGenerator v\(SeedGenerator.version), seed 42, 10 speakers, 100 events, 2026-01-01 … 2027-01-01, minute, app dates"
        ]
        var entities = generator.speakers.map { EncodedEntity($0.speaker.entity) }
        var events = generator.events()
        while let event = events.next() { entities.append(EncodedEntity(event.entity)) }
        for entity in entities {
            lines.append(
                entity.partitionKey + "\t" + entity.rowKey + "\t" + String(decoding: entity.properties, as: UTF8.self)
            )
        }
        // The generated speakers' placeholder photos, byte for byte.
        for speaker in generator.speakers.dropFirst(catalog.speakers.count) {
            lines.append("photo\t" + speaker.photoBlobName + "\t" + Base64.encode(speaker.photo.bytes))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("seed 42 gives exactly the pinned speakers and events")
    func seed42() throws {
        let rendered = try Self.render()
        if ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] == "1" {
            try rendered.write(to: Self.snapshot, atomically: true, encoding: .utf8)
        }
        let pinned = try String(contentsOf: Self.snapshot, encoding: .utf8)
        #expect(rendered == pinned)
    }

}
