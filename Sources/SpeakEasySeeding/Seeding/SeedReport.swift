public import SpeakEasyCore
package import SpeakEasyModel
package import SpeakEasyStorage

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
    /// `reading`: what the table holds, before a merge writes; `verifying`: the table, once written.
    package enum Phase: String, Sendable { case reading, photos, speakers, events, verifying }
    package var phase: Phase
    package var done: Int
    /// 0 when it is not known (how much a table holds is learnt only by reading it all).
    package var total: Int

    /// Entities between two reports of a long read.
    static let step = 10_000
}

/// A seed run that did not go ahead, and wrote nothing: the table holds data and the run's mode is
/// ``SeedMode/fresh`` without a reset, or another seed is writing to the store now.
public struct SeedRefusal: ClassifiedError, Sendable {
    /// What happened, in words, naming the table and the store.
    public let reason: String
    /// ``FailureKind/cannotCreateOutput`` for a table that holds data; ``FailureKind/storageUnavailable``
    /// while another seed writes to the store (the same run works once that one has finished).
    public let kind: FailureKind
    /// The same in the `seed` tool's words, naming its options.
    package let toolDescription: String

    /// The reason.
    public var description: String { reason }

    /// A plain (fresh) run into a table that already holds entities (how many is not asked: on
    /// Azure that is a read of every one).
    package static func tableHoldsData(
        _ table: String,
        in store: (any StorageAccount)?,
        note: String = ""
    ) -> SeedRefusal {
        let holds =
            "\(store?.displayName ?? "the store"): table '\(table)' already holds entities; nothing was written. "
        return SeedRefusal(
            reason: holds + "Seed in mode merge or replace to upsert, or reset the table first." + note,
            kind: .cannotCreateOutput,
            toolDescription: holds + "Use --mode merge or --mode replace to upsert, or --reset to empty it first."
                + note
        )
    }

    /// A plain run or a reset while another seed writes to the store: it would race that run (and
    /// a plain run would take its unfinished manifest for an interrupted one). Unavailable for now,
    /// as a locked store is: the same command works once the other run has finished.
    package static func seedRunning(in store: any StorageAccount) -> SeedRefusal {
        let running = "\(store.displayName): a seed is writing to this store now; nothing was written. "
        return SeedRefusal(
            reason: running + "Run this again when it has finished (a merge or a replace may run beside it).",
            kind: .storageUnavailable,
            toolDescription: running
                + "Run this again when it has finished (--mode merge and --mode replace may run beside it)."
        )
    }
}
