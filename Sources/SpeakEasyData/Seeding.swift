import SpeakEasyModel
public import SpeakEasySeeding

/// What ``Store/seed(_:)`` writes: reproducible speakers and events, as `seed` writes them.
///
/// The same options on the same version write the same entities, byte for byte: give ``seed`` to
/// repeat a run.
public struct SeedOptions: Sendable, Hashable {
    /// The generator's seed; nil picks a random one (the summary says which).
    public var seed: UInt64?
    /// How many events; nil for 100.
    public var eventCount: Int?
    /// How many speakers; nil for every sample speaker.
    public var speakerCount: Int?
    /// How a table that holds data is treated.
    public var mode: SeedMode
    /// The table written: `events`, the app's, by default.
    public var table: String

    /// Options that write 100 events of the sample speakers into a fresh `events` table.
    public init(
        seed: UInt64? = nil,
        eventCount: Int? = nil,
        speakerCount: Int? = nil,
        mode: SeedMode = .fresh,
        table: String = DataContract.table
    ) {
        self.seed = seed
        self.eventCount = eventCount
        self.speakerCount = speakerCount
        self.mode = mode
        self.table = table
    }

    /// The request the seeder takes.
    var request: SeedRequest {
        var request = SeedRequest()
        request.seed = seed
        request.eventCount = eventCount
        request.speakerCount = speakerCount
        request.mode = mode
        request.table = table
        return request
    }
}

/// What a ``Store/seed(_:)`` did.
public struct SeedSummary: Sendable, Hashable {
    /// The generator's seed: the same seed and counts write the same entities again.
    public var seed: UInt64
    /// The table written.
    public var table: String
    /// Speaker entities generated.
    public var speakers: Int
    /// Event entities generated.
    public var events: Int
    /// Entities written that were not there.
    public var inserted: Int
    /// Entities written over different ones.
    public var updated: Int
    /// Entities left alone because they were there already, unchanged.
    public var unchanged: Int
    /// Photos uploaded to the `photos` container.
    public var photosWritten: Int
    /// Whether the run finished one that was interrupted (with the same options).
    public var resumed: Bool

    init(_ report: SeedReport) {
        seed = report.options.seed
        table = report.table
        speakers = report.statistics.speakers
        events = report.statistics.events
        inserted = report.outcome.inserted
        updated = report.outcome.updated
        unchanged = report.outcome.unchanged
        photosWritten = report.photosWritten
        resumed = report.resumed
    }
}

extension Store {
    /// Seeds the store with the built-in sample speakers, their photos and generated events, exactly
    /// as `swift run seed` does: every `EventDate` in the form the app's date parser reads.
    ///
    /// ```swift
    /// let summary = try await store.seed(SeedOptions(seed: 42, eventCount: 500))
    /// print("seed \(summary.seed): \(summary.inserted) entities")
    /// ```
    ///
    /// - Throws: ``StorageError`` when the store fails; ``SeedRefusal`` when the table holds data and
    ///   the mode is ``SeedMode/fresh`` without ``SeedOptions/reset``; ``GenerationError`` when the
    ///   options cannot be met (more events than the dates and speakers allow, a `cutoff` before
    ///   `from`). Nothing is written in the last two cases.
    @discardableResult
    public func seed(_ options: SeedOptions = SeedOptions()) async throws -> SeedSummary {
        let seeder = Seeder(catalog: try SampleCatalog.builtIn(), request: options.request)
        let report = try await seeder.run(
            store: account,
            photoBaseURL: location.blobURL(container: DataContract.photoContainer, blob: "")
        )
        return SeedSummary(report)
    }
}
