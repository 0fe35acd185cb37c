package import SpeakEasyModel
package import SpeakEasyStorage

/// How `seed` treats a table that already holds data.
public enum SeedMode: String, CaseIterable, Sendable {
    /// Populate only a fresh table; refuse one that holds data (as the original setup program did).
    case fresh
    /// Upsert by keys with Azure's merge semantics.
    case merge
    /// Upsert by keys, replacing whole entities.
    case replace

    /// How entities are written (a ``WritePlan`` leaves out what is already there).
    package var writeMode: WriteMode {
        switch self {
        case .fresh: .insert
        case .merge: .insertOrMerge
        case .replace: .insertOrReplace
        }
    }
}

/// What the user asked `seed` for; unset options take defaults, or an interrupted run's values.
package struct SeedRequest: Sendable {
    package var seed: UInt64?
    package var eventCount: Int?
    package var speakerCount: Int?
    package var from: EdmDateTime?
    package var cutoff: EdmDateTime?
    package var resolution: DateResolution?
    package var dateFormat: EventDateFormat?
    package var mode: SeedMode = .fresh
    package var reset = false
    package var dryRun = false
    package var table = DataContract.table

    package init() {}

    package static let defaultEventCount = 100
    package static let defaultWindowDays: Int64 = 365

    /// Fills in defaults: a random seed, 100 events, the sample speakers, today 00:00 UTC + 365 days, minutes.
    package func resolved(
        catalog: SampleCatalog,
        photoBaseURL: String,
        now: EdmDateTime = .now()
    ) throws(GenerationError) -> GeneratorOptions {
        let from = from ?? now.startOfDay
        guard let cutoff = cutoff ?? from.adding(ticks: Self.defaultWindowDays * EdmDateTime.ticksPerDay) else {
            throw GenerationError {
                "\($0.from) \(from) + \(Self.defaultWindowDays) days is past 9999-12-31; give \($0.cutoff)"
            }
        }
        var random = SystemRandomNumberGenerator()
        return GeneratorOptions(
            seed: seed ?? random.next(),
            eventCount: eventCount ?? Self.defaultEventCount,
            speakerCount: speakerCount ?? catalog.speakers.count,
            from: from,
            cutoff: cutoff,
            resolution: resolution ?? .minute,
            dateFormat: dateFormat ?? .app,
            photoBaseURL: photoBaseURL
        )
    }

    /// With `--reset`, empties the table and the photo container.
    package func resetIfAsked(_ store: any StorageAccount) async throws {
        guard reset else { return }
        try await store.deleteAllEntities(table: table)
        try await store.deleteAllBlobs(container: DataContract.photoContainer)
    }

    /// Whether this request, where it says anything, says the same as an interrupted run's options.
    package func agrees(with options: GeneratorOptions) -> Bool {
        (seed ?? options.seed) == options.seed && (eventCount ?? options.eventCount) == options.eventCount
            && (speakerCount ?? options.speakerCount) == options.speakerCount && (from ?? options.from) == options.from
            && (cutoff ?? options.cutoff) == options.cutoff && (resolution ?? options.resolution) == options.resolution
            && (dateFormat ?? options.dateFormat) == options.dateFormat
    }
}
