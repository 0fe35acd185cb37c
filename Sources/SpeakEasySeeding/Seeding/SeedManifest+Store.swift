package import SpeakEasyModel
package import SpeakEasyStorage

/// Reading and writing the manifest in an account, and completing a run.
extension SeedManifest {
    /// A manifest for a run of this version of the generator.
    package init(
        seededTable: String,
        status: Status,
        options: GeneratorOptions?,
        samplesHash: String,
        startedAt: EdmDateTime
    ) {
        self.init(
            seededTable: seededTable,
            status: status,
            options: options,
            generatorVersion: SeedGenerator.version,
            samplesHash: samplesHash,
            startedAt: startedAt
        )
    }

    /// The manifest of `table` in an account, if `seed` left one.
    package static func load(from store: any StorageAccount, table: String) async throws -> SeedManifest? {
        guard let entity = try await store.entity(table: Self.table, partitionKey: table, rowKey: rowKey) else {
            return nil
        }
        return try SeedManifest(entity: entity)
    }

    /// Marks the run complete with what the table now holds: counts per partition and the content
    /// hash — `written` when the run wrote the whole table, else one scan of the table's digests (it
    /// held other data too), which reports progress against `expected` entities when the caller
    /// knows how many there should be (another writer may have added some) and stops when the task is
    /// cancelled. The data is flushed before the manifest says "complete". Returns the counts.
    package mutating func complete(
        in store: any StorageAccount,
        written: (counts: [String: Int], hash: ContentHash)?,
        expected: Int? = nil,
        progress: @Sendable (SeedProgress) -> Void = { _ in }
    ) async throws -> [String: Int] {
        var (counts, hash) = written ?? ([:], ContentHash())
        if written == nil {
            var scanned = 0
            try await store.forEachDigest(table: seededTable) { entity in
                counts[entity.partitionKey, default: 0] += 1
                hash.add(entity.digest)
                scanned += 1
                if scanned % SeedProgress.step == 0 {
                    progress(
                        SeedProgress(phase: .verifying, done: scanned, total: expected.map { max($0, scanned) } ?? 0)
                    )
                    try Task.checkCancellation()
                }
            }
        }
        try await store.flush()
        status = .complete
        completedAt = .now()
        speakerEntities = counts[DataContract.speakersPartition] ?? 0
        eventEntities = counts[DataContract.eventsPartition] ?? 0
        contentHash = hash.description
        try await save(to: store)
        try await store.flush()
        return counts
    }

    package func save(to store: any StorageAccount) async throws {
        try await store.createTableIfNotExists(Self.table)
        try await store.write([entity], table: Self.table, mode: .insertOrReplace)
    }
}
