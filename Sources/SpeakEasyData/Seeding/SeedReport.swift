/// The outcome of a seed run (or of a dry run: what it would write).
package struct SeedReport: Sendable {
    package var options: GeneratorOptions
    package var table: String
    package var dryRun: Bool
    /// True when the run finished an interrupted one.
    package var resumed: Bool
    package var photos: Int
    package var photosWritten: Int
    package var outcome: WriteOutcome
    package var statistics: SeedStatistics
    /// Entities per partition in the table afterwards (for a dry run: what was generated).
    package var partitionCounts: [String: Int]
    package var contentHash: String
    package var speakerNames: [String: String]
}

/// Where a seed run is, for a progress bar.
package struct SeedProgress: Sendable {
    package enum Phase: String, Sendable { case photos, speakers, events, verifying }
    package var phase: Phase
    package var done: Int
    package var total: Int
}

/// A seed run that must not go ahead: the table holds data and no mode allows writing to it.
package struct SeedRefusal: ClassifiedError {
    package let reason: String
    package var kind: FailureKind { .cannotCreateOutput }
    package var description: String { reason }
}
