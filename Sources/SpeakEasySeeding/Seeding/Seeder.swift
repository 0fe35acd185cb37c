import SpeakEasyCore
import SpeakEasyModel
package import SpeakEasyStorage

/// Runs `seed`: checks everything, then writes photos, speakers and events into an account.
///
/// Nothing is written until the options, the samples and the account's state have been checked.
/// Writes go in batches (atomic only per transaction group, see ``StorageAccount``); a manifest marked
/// "in progress" before the first batch lets the same command finish an interrupted run without
/// duplicates: it skips what is already there (``WritePlan``).
package struct Seeder: Sendable {
    package var catalog: SampleCatalog
    package var request: SeedRequest
    /// Entities per write call (the local account commits each call at once; Azure in groups of 100).
    package var batchSize = 2_500
    /// Event batches written at once: one being finished while the next is started.
    static let writesQueued = 2
    /// Photos put at once.
    static let photosAtOnce = 8

    /// Runs before the manifest counts a table that held other data, by scanning it: a merge beside
    /// another seed waits there until that one has written all it will (`seed` waits for its lock),
    /// so that whichever manifest is written last holds both runs' entities. Without the wait, a
    /// merge that finished first could count the table while the other still wrote, and write its
    /// short count last.
    package var beforeCountingTable: @Sendable () async throws -> Void = {}

    package init(catalog: SampleCatalog, request: SeedRequest) {
        self.catalog = catalog
        self.request = request
    }

    /// Seeds `store`; with `dryRun`, `store` may be nil (no account yet) and nothing is written.
    package func run(
        store: (any StorageAccount)?,
        photoBaseURL: String,
        progress: @Sendable (SeedProgress) -> Void = { _ in }
    ) async throws -> SeedReport {
        let table = request.table
        let holdsData = try await store?.holdsEntities(table: table) ?? false
        var manifest: SeedManifest?
        if let store { manifest = try await SeedManifest.load(from: store, table: table) }

        // The options of an interrupted run this request may finish: same generator, samples and
        // options where the request gives any.
        let unfinished = manifest.flatMap { manifest -> GeneratorOptions? in
            guard let previous = manifest.options, manifest.status == .inProgress,
                manifest.generatorVersion == SeedGenerator.version, manifest.samplesHash == catalog.fingerprint,
                request.agrees(with: previous)
            else { return nil }
            return previous
        }
        var resumed = false
        var options = try request.resolved(catalog: catalog, photoBaseURL: photoBaseURL)
        if request.mode == .fresh, !request.reset, holdsData {
            guard let unfinished else {
                let interrupted =
                    manifest?.status == .inProgress
                    ? " (An interrupted run "
                        + (manifest?.options.map { "with other options, seed \($0.seed)," } ?? "of an import")
                        + " left it partly written.)" : ""
                throw SeedRefusal.tableHoldsData(table, in: store, note: interrupted)
            }
            options = unfinished
            resumed = true
        } else if request.reset, let unfinished, manifest?.emptiedFirst == true {
            // An interrupted `--reset` emptied the table before it wrote its manifest: the same
            // command finishes it, with its seed, rather than emptying it again and drawing anew.
            options = unfinished
            resumed = true
        }
        let generator = try SeedGenerator(catalog: catalog, options: options)

        guard let store, !request.dryRun else {
            return try dryRun(generator, table: table, progress: progress)
        }
        // Drawing and sorting the events is CPU work with no store in it (about a tenth of a run): it
        // goes on beside the manifest and the photos, which mostly wait on the store.
        async let drawsInKeyOrder = generator.eventDrawsInKeyOrder()

        var newManifest = SeedManifest(
            seededTable: table,
            status: .inProgress,
            options: options,
            samplesHash: catalog.fingerprint,
            startedAt: resumed ? manifest!.startedAt : .now()
        )
        // What the table holds is read once, and only when it holds something; before anything is
        // written, so that a store that cannot be read (corrupt pages) keeps its manifest as it was.
        let plan =
            holdsData && (!request.reset || resumed)
            ? try await WritePlan(
                reading: store,
                table: table,
                mode: request.mode.writeMode,
                resuming: resumed,
                progress: progress
            )
            : WritePlan(mode: request.mode.writeMode)
        // Emptied first, then marked: an in-progress manifest of a reset says the emptying is done.
        if !resumed { try await request.resetIfAsked(store) }
        newManifest.emptiedFirst = request.reset
        try await newManifest.save(to: store)

        try await store.createContainerIfNotExists(DataContract.photoContainer, access: .container)
        // A few photos at a time: each is a request of its own to an account over the network.
        let photos = Locked((done: 0, written: 0))
        let speakerCount = generator.speakers.count
        try await withoutActuallyEscaping(progress) { progress in
            try await forEachConcurrently(generator.speakers, limit: Self.photosAtOnce) { speaker in
                let written = try await store.putBlob(
                    container: DataContract.photoContainer,
                    name: speaker.photoBlobName,
                    contentType: speaker.photo.format.contentType,
                    data: speaker.photo.bytes
                )
                let done = photos.withLock { photos in
                    photos.done += 1
                    if written { photos.written += 1 }
                    return photos.done
                }
                progress(SeedProgress(phase: .photos, done: done, total: speakerCount))
            }
        }
        let photosWritten = photos.withLock { $0.written }
        // Ctrl-C stops a run between batches (seed's Interruption), never inside a write.
        try Task.checkCancellation()

        try await store.createTableIfNotExists(table)
        var statistics = SeedStatistics()
        var outcome = WriteOutcome()
        let speakers = generator.speakers.map(\.speaker)
        for start in stride(from: 0, to: speakers.count, by: batchSize) {
            try Task.checkCancellation()
            let batch = speakers[start..<min(start + batchSize, speakers.count)]
            let planned = plan.plan(batch.map { (EncodedEntity($0.entity), EntityDigest($0.entity)) })
            if !planned.write.isEmpty { try await store.write(planned.write, table: table, mode: plan.mode) }
            outcome += planned.outcome
            for speaker in batch { statistics.add(speaker) }
            progress(
                SeedProgress(phase: .speakers, done: min(start + batchSize, speakers.count), total: speakers.count)
            )
        }

        // Events go in RowKey order, so the store appends to its key index. The next batch is encoded
        // while the store writes the previous ones (child tasks): two writes queue at the store, so an
        // account over the network always has the next batch's requests to send while it finishes the
        // last requests of the one before. A task group, not detached tasks: when anything throws, the
        // group waits for the write still at the store before the error ends the run (a tool that
        // exited in its middle left a full disk's SQLite journal behind).
        let draws = await drawsInKeyOrder
        let encoder = EventEncoder(generator)
        var canonical: [UInt8] = []
        try await withThrowingTaskGroup(of: Void.self) { writes in
            var queued = 0
            var written = 0
            while written < draws.count {
                // Throwing here lets the group wait for the writes under way: each ends committed.
                try Task.checkCancellation()
                let end = min(written + batchSize, draws.count)
                var batch: [(entity: EncodedEntity, digest: EntityDigest)] = []
                batch.reserveCapacity(end - written)
                for draw in draws[written..<end] {
                    let entity = encoder.encode(draw)
                    let digest = encoder.digest(of: draw, entity: entity, scratch: &canonical)
                    statistics.add(draw, digest: digest, encoder: encoder)
                    batch.append((entity, digest))
                }
                if queued == Self.writesQueued {
                    try await writes.next()
                    queued -= 1
                }
                let planned = plan.plan(batch)
                outcome += planned.outcome
                if !planned.write.isEmpty {
                    writes.addTask { [write = planned.write, mode = plan.mode] in
                        try await store.write(write, table: table, mode: mode)
                    }
                    queued += 1
                }
                written = end
                progress(SeedProgress(phase: .events, done: written, total: options.eventCount))
            }
            try await writes.waitForAll()
        }

        // The manifest describes the whole table: when it held other data too, hash it all.
        if holdsData && !request.reset { try await beforeCountingTable() }
        let counts = try await newManifest.complete(
            in: store,
            written: holdsData && !request.reset ? nil : (statistics.partitionCounts, statistics.hash),
            expected: plan.existingCount + outcome.inserted,
            progress: progress
        )

        return SeedReport(
            options: options,
            table: table,
            dryRun: false,
            resumed: resumed,
            photos: generator.speakers.count,
            photosWritten: photosWritten,
            outcome: outcome,
            statistics: statistics,
            partitionCounts: counts,
            contentHash: newManifest.contentHash,
            speakerNames: Dictionary(uniqueKeysWithValues: speakers.map { ($0.key, $0.name) })
        )
    }

    /// Generates everything, as a real run would, and reports it without writing.
    private func dryRun(
        _ generator: SeedGenerator,
        table: String,
        progress: @Sendable (SeedProgress) -> Void
    ) throws -> SeedReport {
        var statistics = SeedStatistics()
        let speakers = generator.speakers.map(\.speaker)
        for speaker in speakers { statistics.add(speaker) }
        let encoder = EventEncoder(generator)
        var canonical: [UInt8] = []
        for draw in generator.eventDrawsInKeyOrder() {
            statistics.add(
                draw,
                digest: encoder.digest(of: draw, entity: encoder.encode(draw), scratch: &canonical),
                encoder: encoder
            )
            if statistics.events % 10_000 == 0 {
                progress(SeedProgress(phase: .events, done: statistics.events, total: generator.options.eventCount))
            }
        }
        return SeedReport(
            options: generator.options,
            table: table,
            dryRun: true,
            resumed: false,
            photos: generator.speakers.count,
            photosWritten: 0,
            outcome: WriteOutcome(inserted: speakers.count + statistics.events),
            statistics: statistics,
            partitionCounts: [
                DataContract.speakersPartition: speakers.count, DataContract.eventsPartition: statistics.events,
            ],
            contentHash: statistics.hash.description,
            speakerNames: Dictionary(uniqueKeysWithValues: speakers.map { ($0.key, $0.name) })
        )
    }
}
