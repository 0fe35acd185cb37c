public import SpeakEasyModel
public import SpeakEasySeeding

/// What ``Store/seed(_:)`` writes: reproducible speakers and events, as `seed` writes them.
///
/// The same options on the same version write the same entities, byte for byte, when they say when:
/// give ``seed`` and ``from`` to repeat a run. Without ``from`` the events start today (00:00 UTC), so
/// the same seed writes other dates on another day.
///
/// ```swift
/// let from = EdmDateTime(year: 2027, month: 1, day: 1)
/// try await store.seed(SeedOptions(seed: 42, eventCount: 500, from: from))
/// ```
public struct SeedOptions: Sendable, Hashable {
    /// The generator's seed; nil picks a random one (the summary says which).
    public var seed: UInt64?
    /// How many events; nil for 100.
    public var eventCount: Int?
    /// How many speakers; nil for every sample speaker.
    public var speakerCount: Int?
    /// The earliest event date, inclusive; nil for today at 00:00 UTC (`seed --from`). Give it to
    /// repeat a run on another day.
    public var from: EdmDateTime?
    /// The latest event date, inclusive; nil for ``from`` + 365 days (`seed --cutoff`).
    public var cutoff: EdmDateTime?
    /// How a table that holds data is treated.
    public var mode: SeedMode
    /// Empty the table and the `speakers` photo container first, then seed (`seed --reset`); a fresh
    /// run into a table that holds data then goes ahead.
    public var reset: Bool
    /// The table written: `events`, the app's, by default.
    public var table: String

    /// Options that write 100 events of the sample speakers into a fresh `events` table, dated from
    /// today.
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
        self.reset = false
        self.table = table
    }

    /// Options with the dates given: events between `from` and `cutoff` (nil: `from` + 365 days), and
    /// with `reset`, the table and the photos emptied first.
    public init(
        seed: UInt64? = nil,
        eventCount: Int? = nil,
        speakerCount: Int? = nil,
        from: EdmDateTime?,
        cutoff: EdmDateTime? = nil,
        mode: SeedMode = .fresh,
        reset: Bool = false,
        table: String = DataContract.table
    ) {
        self.init(seed: seed, eventCount: eventCount, speakerCount: speakerCount, mode: mode, table: table)
        self.from = from
        self.cutoff = cutoff
        self.reset = reset
    }

    /// The request the seeder takes.
    var request: SeedRequest {
        var request = SeedRequest()
        request.seed = seed
        request.eventCount = eventCount
        request.speakerCount = speakerCount
        request.from = from
        request.cutoff = cutoff
        request.mode = mode
        request.reset = reset
        request.table = table
        return request
    }
}

/// What a ``Store/seed(_:)`` did.
public struct SeedSummary: Sendable, Hashable {
    /// The generator's seed: the same seed, counts and ``from`` write the same entities again.
    public var seed: UInt64
    /// The earliest event date the run allowed (the options' ``SeedOptions/from``, or the day it ran).
    public var from: EdmDateTime
    /// The latest event date the run allowed.
    public var cutoff: EdmDateTime
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
    /// Photos uploaded to the `speakers` container.
    public var photosWritten: Int
    /// Whether the run finished one that was interrupted (with the same options).
    public var resumed: Bool

    init(_ report: SeedReport) {
        seed = report.options.seed
        from = report.options.from
        cutoff = report.options.cutoff
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
