/// Runs `seed`: checks everything, then writes photos, speakers and events into an account.
///
/// Nothing is written until the options, the samples and the account's state have been checked.
/// Writes go in batches, each one transaction; a manifest marked "in progress" before the first
/// batch lets the same command finish an interrupted run without duplicates.
package struct Seeder: Sendable {
    package var catalog: SampleCatalog
    package var request: SeedRequest
    /// Entities per write (one transaction each).
    package var batchSize = 2_500

    package init(catalog: SampleCatalog, request: SeedRequest) {
        self.catalog = catalog
        self.request = request
    }

    /// Seeds `store`; with `dryRun`, `store` may be nil (no account yet) and nothing is written.
    package func run(store: (any StorageAccount)?, photoBaseURL: String, progress: @Sendable (SeedProgress) -> Void = { _ in }) async throws -> SeedReport {
        let table = request.table
        let existing = try await store?.entityCounts(table: table) ?? [:]
        var manifest: SeedManifest?
        if let store { manifest = try await SeedManifest.load(from: store, table: table) }
        let holdsData = existing.values.reduce(0, +) > 0

        var resumed = false
        var options = try request.resolved(catalog: catalog, photoBaseURL: photoBaseURL)
        if request.mode == .fresh, !request.reset, holdsData {
            guard let manifest, let previous = manifest.options, manifest.status == .inProgress, manifest.generatorVersion == SeedGenerator.version,
                manifest.samplesHash == catalog.fingerprint, request.agrees(with: previous)
            else {
                let count = existing.values.reduce(0, +)
                throw SeedRefusal(
                    reason: "table '\(table)' in \(store?.displayName ?? "the store") already holds \(count) entities; nothing was written. "
                        + "Use --mode merge or --mode replace to upsert, or --reset to empty it first."
                        + (manifest?.status == .inProgress ? " (An interrupted run " + (manifest?.options.map { "with other options, seed \($0.seed)," } ?? "of an import") + " left it partly written.)" : ""))
            }
            options = previous
            resumed = true
        }
        let generator = try SeedGenerator(catalog: catalog, options: options)

        guard let store, !request.dryRun else {
            return try dryRun(generator, table: table, existing: existing, progress: progress)
        }

        var newManifest = SeedManifest(seededTable: table, status: .inProgress, options: options, samplesHash: catalog.fingerprint, startedAt: resumed ? manifest!.startedAt : .now())
        try await newManifest.save(to: store)
        if request.reset {
            try await store.deleteAllEntities(table: table)
            try await store.deleteAllBlobs(container: DataContract.photoContainer)
        }
        let mode: WriteMode =
            switch request.mode {
            case .fresh: resumed ? .insertOrSkip : .insert
            case .merge: .insertOrMerge
            case .replace: .insertOrReplace
            }

        try await store.createContainerIfNotExists(DataContract.photoContainer, access: .container)
        var photosWritten = 0
        for (index, speaker) in generator.speakers.enumerated() {
            if try await store.putBlob(container: DataContract.photoContainer, name: speaker.photoBlobName, contentType: speaker.photo.format.contentType, data: speaker.photo.bytes) {
                photosWritten += 1
            }
            progress(SeedProgress(phase: .photos, done: index + 1, total: generator.speakers.count))
        }

        try await store.createTableIfNotExists(table)
        var statistics = SeedStatistics()
        var outcome = WriteOutcome()
        let speakers = generator.speakers.map(\.speaker)
        for start in stride(from: 0, to: speakers.count, by: batchSize) {
            let batch = speakers[start..<min(start + batchSize, speakers.count)]
            outcome += try await store.write(batch.map(\.entity), table: table, mode: mode)
            for speaker in batch { statistics.add(speaker) }
            progress(SeedProgress(phase: .speakers, done: min(start + batchSize, speakers.count), total: speakers.count))
        }

        // Events go in RowKey order, so the store appends to its key index. The next batch is encoded
        // while the store writes the previous one on another thread (a detached task).
        let draws = generator.eventDrawsInKeyOrder()
        let encoder = EventEncoder(generator)
        var pending: Task<WriteOutcome, any Error>?
        var written = 0
        while true {
            let end = min(written + batchSize, draws.count)
            var batch: [EncodedEntity] = []
            batch.reserveCapacity(end - written)
            for draw in draws[written..<end] {
                let entity = encoder.encode(draw)
                statistics.addEvent(date: encoder.date(of: draw), speakerKey: encoder.speakerKeys[Int(draw.speaker)], entity: entity)
                batch.append(entity)
            }
            if let pending { outcome += try await pending.value }
            pending = nil
            if batch.isEmpty { break }
            let toWrite = batch
            pending = Task.detached { try await store.write(toWrite, table: table, mode: mode) }
            written = end
            progress(SeedProgress(phase: .events, done: written, total: options.eventCount))
        }

        var counts = try await store.entityCounts(table: table)
        var hash = statistics.hash
        if holdsData && !request.reset {
            // The table held other data too: the manifest describes the whole table, so hash it all.
            hash = ContentHash()
            let total = counts.values.reduce(0, +)
            var scanned = 0
            try await store.forEachEntity(table: table) { entity in
                hash.add(entity.content)
                scanned += 1
                if scanned % 10_000 == 0 { progress(SeedProgress(phase: .verifying, done: scanned, total: total)) }
            }
            counts = try await store.entityCounts(table: table)
        }
        // A barrier: the data is on disk before the manifest says "complete".
        try await store.flush()
        newManifest.status = .complete
        newManifest.completedAt = .now()
        newManifest.speakerEntities = counts[DataContract.speakersPartition] ?? 0
        newManifest.eventEntities = counts[DataContract.eventsPartition] ?? 0
        newManifest.contentHash = hash.description
        try await newManifest.save(to: store)
        try await store.flush()

        return SeedReport(
            options: options, table: table, dryRun: false, resumed: resumed, photos: generator.speakers.count, photosWritten: photosWritten,
            outcome: outcome, statistics: statistics, partitionCounts: counts, contentHash: hash.description,
            speakerNames: Dictionary(uniqueKeysWithValues: speakers.map { ($0.key, $0.name) }))
    }

    /// Generates everything, as a real run would, and reports it without writing.
    private func dryRun(_ generator: SeedGenerator, table: String, existing: [String: Int], progress: @Sendable (SeedProgress) -> Void) throws -> SeedReport {
        var statistics = SeedStatistics()
        let speakers = generator.speakers.map(\.speaker)
        for speaker in speakers { statistics.add(speaker) }
        let encoder = EventEncoder(generator)
        for draw in generator.eventDrawsInKeyOrder() {
            statistics.addEvent(date: encoder.date(of: draw), speakerKey: encoder.speakerKeys[Int(draw.speaker)], entity: encoder.encode(draw))
            if statistics.events % 10_000 == 0 { progress(SeedProgress(phase: .events, done: statistics.events, total: generator.options.eventCount)) }
        }
        return SeedReport(
            options: generator.options, table: table, dryRun: true, resumed: false, photos: generator.speakers.count, photosWritten: 0,
            outcome: WriteOutcome(inserted: speakers.count + statistics.events), statistics: statistics,
            partitionCounts: [DataContract.speakersPartition: speakers.count, DataContract.eventsPartition: statistics.events],
            contentHash: statistics.hash.description, speakerNames: Dictionary(uniqueKeysWithValues: speakers.map { ($0.key, $0.name) }))
    }
}
