import SpeakEasyData
import TestSupport
import Testing

@Suite("SeedManifest")
struct SeedManifestTests {
    static func manifest(seed: UInt64 = .max, completed: Bool = true) -> SeedManifest {
        let options = GeneratorOptions(
            seed: seed,
            eventCount: 1_000_000,
            speakerCount: 40,
            from: .at("2026-01-01T00:00:00Z"),
            cutoff: .at("2027-01-01T00:00:00.0000001Z"),
            resolution: .second,
            photoBaseURL: "http://127.0.0.1:10000/speakeasy/speakers/"
        )
        var manifest = SeedManifest(
            seededTable: "events",
            status: completed ? .complete : .inProgress,
            options: options,
            samplesHash: "sha256:abc",
            startedAt: .at("2026-05-01T10:00:01.1234567Z")
        )
        if completed {
            manifest.completedAt = .at("2026-05-01T10:00:09.7654321Z")
            manifest.speakerEntities = 40
            manifest.eventEntities = 1_000_000
            manifest.contentHash = "sha256-sum:" + String(repeating: "ab", count: 32)
        }
        return manifest
    }

    @Test("a manifest survives its entity form", arguments: [true, false])
    func roundTrip(completed: Bool) throws {
        let manifest = Self.manifest(completed: completed)
        let entity = manifest.entity
        #expect(entity.partitionKey == "events")
        #expect(entity.rowKey == SeedManifest.rowKey)
        #expect(try SeedManifest(entity: entity) == manifest)
        #expect((entity["CompletedAt"] != nil) == completed)
    }

    @Test("seeds beyond Int64 survive (kept as a string)", arguments: [UInt64.max, 0, 42, UInt64(Int64.max) + 1])
    func seeds(seed: UInt64) throws {
        let manifest = Self.manifest(seed: seed)
        #expect(manifest.entity["Seed"] == .string(String(seed)))
        #expect(try SeedManifest(entity: manifest.entity).options?.seed == seed)
    }

    @Test("a manifest survives the SQLite store and JSON")
    func throughStore() async throws {
        try await withStore { store, _ in
            let manifest = Self.manifest()
            try await manifest.save(to: store)
            #expect(try await SeedManifest.load(from: store, table: "events") == manifest)
            #expect(try await SeedManifest.load(from: store, table: "other") == nil)
            var updated = manifest
            updated.status = .inProgress
            try await updated.save(to: store)
            #expect(try await SeedManifest.load(from: store, table: "events")?.status == .inProgress)
        }
    }

    @Test(
        "an entity that is not a manifest is refused, naming what is wrong",
        arguments: ["Status", "Seed", "Events", "From", "Resolution", "ContentHash"]
    )
    func broken(property: String) {
        var entity = Self.manifest().entity
        entity.properties.removeAll { $0.name == property }
        let error = #expect(throws: EntityMappingError.self) { try SeedManifest(entity: entity) }
        #expect(error?.reason.contains(property) == true, "\(String(describing: error))")
    }

    @Test("unknown status, resolution or a non-numeric seed are refused")
    func unknownValues() {
        for (name, value) in [("Status", "paused"), ("Resolution", "week"), ("Seed", "-1")] {
            var entity = Self.manifest().entity
            let index = entity.properties.firstIndex { $0.name == name }!
            entity.properties[index].value = .string(value)
            let error = #expect(throws: EntityMappingError.self) { try SeedManifest(entity: entity) }
            #expect(error?.reason.contains(name) == true, "\(String(describing: error))")
        }
    }
}
