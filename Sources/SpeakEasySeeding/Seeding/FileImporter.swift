import SpeakEasyCore
package import SpeakEasyFormats
package import SpeakEasyModel
package import SpeakEasyStorage

/// Runs `seed --from-file`: loads entities from data files into an account, under the same rules as
/// generated data (fresh refuses a table holding data; merge/replace upsert; reset empties the table
/// and photo container first; dry run writes nothing).
///
/// Two passes over the files: the first reads everything — so malformed input, or the same keys twice,
/// is reported before anything is written — and the second writes in batches. Photos are not
/// invented: speakers keep whatever `ImageUrl` the data gives.
package struct FileImporter {
    package var files: [String]
    package var readOptions = EntityFiles.ReadOptions()
    package var request: SeedRequest
    package var batchSize = 2_500
    /// ImageUrls to write instead of the files' own, by speaker RowKey (`seed --photos`: the URL of
    /// the photo as uploaded into this account).
    package var imageURLs: [String: String] = [:]
    /// Runs before the manifest counts a table that held other data (``Seeder/beforeCountingTable``).
    package var beforeCountingTable: @Sendable () async throws -> Void = {}

    package init(files: [String], request: SeedRequest) {
        self.files = files
        self.request = request
    }

    package struct Report: Sendable {
        package var table: String
        package var dryRun: Bool
        /// Entities read per partition.
        package var read: [String: Int]
        package var outcome: WriteOutcome
        /// Entities per partition in the table afterwards (dry run: what was read).
        package var partitionCounts: [String: Int]
        package var contentHash: String
    }

    /// What the first pass found: entities per partition and their content hash.
    package struct Checked: Sendable {
        package var read: [String: Int]
        package var hash: ContentHash
    }

    /// Checks the files, then writes them into `store` (nil for a dry run without an account).
    package func run(
        store: (any StorageAccount)?,
        progress: @Sendable (SeedProgress) -> Void = { _ in }
    ) async throws -> Report {
        try await run(store: store, checked: check(progress: progress), progress: progress)
    }

    /// Writes files that ``check(progress:)`` passed.
    package func run(
        store: (any StorageAccount)?,
        checked: Checked,
        progress: @Sendable (SeedProgress) -> Void = { _ in }
    ) async throws -> Report {
        let table = request.table
        let (read, inputHash) = (checked.read, checked.hash)
        let holdsData = try await store?.holdsEntities(table: table) ?? false
        if request.mode == .fresh, !request.reset, holdsData {
            throw SeedRefusal.tableHoldsData(table, in: store)
        }
        guard let store, !request.dryRun else {
            return Report(
                table: table,
                dryRun: true,
                read: read,
                outcome: WriteOutcome(inserted: read.values.reduce(0, +)),
                partitionCounts: read,
                contentHash: inputHash.description
            )
        }

        var manifest = SeedManifest(
            seededTable: table,
            status: .inProgress,
            options: nil,
            samplesHash: "",
            startedAt: .now()
        )
        manifest.importedFiles = files
        // Read before anything is written (as the Seeder does).
        let plan =
            holdsData && !request.reset
            ? try await WritePlan(
                reading: store,
                table: table,
                mode: request.mode.writeMode,
                resuming: false,
                progress: progress
            )
            : WritePlan(mode: request.mode.writeMode)
        try await manifest.save(to: store)
        try await request.resetIfAsked(store)
        try await store.createTableIfNotExists(table)
        var outcome = WriteOutcome()
        var written = 0
        let total = read.values.reduce(0, +)
        var batch: [(entity: EncodedEntity, digest: EntityDigest)] = []
        func send() async throws {
            try Task.checkCancellation()  // between writes: see seed's Interruption
            let planned = plan.plan(batch)
            if !planned.write.isEmpty { try await store.write(planned.write, table: table, mode: plan.mode) }
            outcome += planned.outcome
            written += batch.count
            batch.removeAll(keepingCapacity: true)
            progress(SeedProgress(phase: .events, done: written, total: total))
        }
        for path in files {
            var opened = try EntityFiles.open(path, options: readOptions)
            while var entity = try opened.reader.next() {
                if entity.partitionKey == DataContract.speakersPartition, let url = imageURLs[entity.rowKey],
                    let index = entity.properties.firstIndex(where: { $0.name == "ImageUrl" })
                {
                    entity.properties[index].value = .string(url)
                }
                batch.append((EncodedEntity(entity), EntityDigest(entity)))
                if batch.count == batchSize { try await send() }
            }
        }
        if !batch.isEmpty { try await send() }

        // The manifest describes the whole table, which may hold more than the files did, or other
        // ImageUrls than they did: then it is counted and hashed from the table.
        let counted = holdsData && !request.reset || !imageURLs.isEmpty
        if holdsData && !request.reset { try await beforeCountingTable() }
        let counts = try await manifest.complete(
            in: store,
            written: counted ? nil : (read, inputHash),
            expected: plan.existingCount + outcome.inserted,
            progress: progress
        )
        return Report(
            table: table,
            dryRun: false,
            read: read,
            outcome: outcome,
            partitionCounts: counts,
            contentHash: manifest.contentHash
        )
    }

    /// The first pass: reads every file, counts entities per partition, hashes them, and refuses the
    /// same (PartitionKey, RowKey) twice — a fresh insert would fail half-way through on it.
    /// `inspect` sees each entity with its file and line, for checks of layers above this one (the
    /// data contract's rules) in the same pass.
    package func check(
        progress: @Sendable (SeedProgress) -> Void = { _ in },
        inspect: (_ entity: Entity, _ file: String, _ line: Int) -> Void = { _, _, _ in }
    ) throws -> Checked {
        var counts: [String: Int] = [:]
        var hash = ContentHash()
        var seen = Set<KeyDigest>()
        var count = 0
        for path in files {
            var opened = try EntityFiles.open(path, options: readOptions)
            while let entity = try opened.reader.next() {
                guard seen.insert(KeyDigest(entity.partitionKey, entity.rowKey)).inserted else {
                    throw FormatError(
                        source: opened.input.name,
                        line: opened.reader.entityLine,
                        keys: (entity.partitionKey, entity.rowKey),
                        reason: "these keys appear earlier in the input too; an entity can be loaded only once"
                    )
                }
                inspect(entity, path, opened.reader.entityLine)
                counts[entity.partitionKey, default: 0] += 1
                hash.add(entity.content)
                count += 1
                if count % 10_000 == 0 { progress(SeedProgress(phase: .verifying, done: count, total: 0)) }
            }
        }
        return Checked(read: counts, hash: hash)
    }
}
