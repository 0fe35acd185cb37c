package import SpeakEasyStorage

/// What a run's writes did: entities new, changed and left as they were.
package struct WriteOutcome: Hashable, Sendable {
    package var inserted = 0
    package var updated = 0
    package var unchanged = 0

    package init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }

    package static func += (lhs: inout WriteOutcome, rhs: WriteOutcome) {
        lhs.inserted += rhs.inserted
        lhs.updated += rhs.updated
        lhs.unchanged += rhs.unchanged
    }
}

/// Decides, per entity, whether a seed writes it: from the digests of what the table already holds,
/// read once in bulk, so that no backend needs a read per entity.
///
/// An entity whose content is already there is not written (its Timestamp and ETag stay); finishing an
/// interrupted fresh run also leaves alone what it finds changed, as Insert would refuse it. What is
/// written goes with the run's ``WriteMode``, so a write raced by another writer stays correct.
package struct WritePlan: Sendable {
    /// What the table held before the run, by key; empty for a table known to be empty.
    private var existing: [KeyDigest: EntityDigest]
    /// How many entities the table held before the run.
    package var existingCount: Int { existing.count }
    package let mode: WriteMode
    /// Finishing an interrupted fresh run: anything there is kept.
    package let resuming: Bool

    /// A plan for a table known to hold nothing: everything is inserted.
    package init(mode: WriteMode) {
        self.existing = [:]
        self.mode = mode
        self.resuming = false
    }

    /// Reads the table's digests; stops when the task is cancelled.
    package init(
        reading store: any StorageAccount,
        table: String,
        mode: WriteMode,
        resuming: Bool,
        progress: @Sendable (SeedProgress) -> Void = { _ in }
    ) async throws {
        var existing: [KeyDigest: EntityDigest] = [:]
        try await store.forEachDigest(table: table) {
            existing[KeyDigest($0.partitionKey, $0.rowKey)] = $0.digest
            if existing.count % SeedProgress.step == 0 {
                progress(SeedProgress(phase: .reading, done: existing.count, total: 0))
                try Task.checkCancellation()
            }
        }
        self.existing = existing
        self.mode = mode
        self.resuming = resuming
    }

    /// The entities of a batch to send, and what the batch does; each comes with its content digest.
    package func plan(
        _ batch: [(entity: EncodedEntity, digest: EntityDigest)]
    ) -> (write: [EncodedEntity], outcome: WriteOutcome) {
        guard !existing.isEmpty else { return (batch.map(\.entity), WriteOutcome(inserted: batch.count)) }
        var write: [EncodedEntity] = []
        var outcome = WriteOutcome()
        for (entity, digest) in batch {
            switch existing[KeyDigest(entity.partitionKey, entity.rowKey)] {
            case nil:
                write.append(entity)
                outcome.inserted += 1
            case digest?:
                outcome.unchanged += 1
            case _? where resuming:
                outcome.unchanged += 1
            case _?:
                write.append(entity)
                outcome.updated += 1
            }
        }
        return (write, outcome)
    }
}

/// 128 bits identifying an entity's keys: a table of these finds a million entities' keys in tens of
/// megabytes, where the keys themselves would take several times that.
package struct KeyDigest: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    package init(_ partitionKey: String, _ rowKey: String) {
        var first = Hasher()
        var second = Hasher()
        first.combine(partitionKey)
        first.combine(rowKey)
        second.combine(rowKey)
        second.combine(0x5EED as UInt16)
        second.combine(partitionKey)
        high = UInt64(bitPattern: Int64(first.finalize()))
        low = UInt64(bitPattern: Int64(second.finalize()))
    }
}
