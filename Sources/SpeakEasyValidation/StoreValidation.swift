import SpeakEasyModel
package import SpeakEasyStorage

/// `validate --store`: the `events` table (speakers first, then events, then any other partition),
/// the photo container and the seed manifest.
package enum StoreValidation {
    package static func rules(_ options: ValidationOptions) -> [Rule] {
        Rule.allCases.filter { options.rules.contains($0) }
    }

    /// Checks the store; `parallel` ranges of each partition are read at once (``ParallelScan``).
    package static func run(
        _ store: any StorageAccount,
        options: ValidationOptions,
        parallel: Int = 1,
        progress: (Int, Int) -> Void = { _, _ in }
    ) async throws
        -> ValidationReport
    {
        let started = ContinuousClock.now
        let table = DataContract.table
        // An account without the table has nothing to validate (an Azure account is always there).
        guard try await store.tableNames().contains(table) else {
            var error = StorageError(
                .notFound,
                account: store.displayName,
                "there is no table '\(table)' to validate",
                code: "TableNotFound"
            )
            error.toolAdvice = ": run seed first, or name another account with --store"
            throw error
        }
        // The manifest's counts size the duplicate sets and the progress bar: counting first would be a
        // read of every entity on Azure.
        let (manifest, manifestProblem) = try await loadManifest(store, table: table, options: options)
        var validator = Validator(options: options, expectedEvents: manifest?.eventEntities ?? 0)
        validator.begin(.table(table))
        if let manifestProblem { validator.log.add(.manifestIncomplete, manifestProblem, at: ManifestCheck.location) }
        let total = manifest.map { $0.speakerEntities + $0.eventEntities } ?? 0
        let hashing = manifest?.status == .complete && validator.log.isOn(.manifestHash)
        var hash = ContentHash()
        var counts: [String: Int] = [:]

        // Speakers first, so events meet known speakers (the store's own key order would put "Events"
        // before "speakers"), then events, then any other partition.
        let (speakers, events) = (DataContract.speakersPartition, DataContract.eventsPartition)
        let others = EntityFilter.and(
            .comparison(property: "PartitionKey", .ne, .string(speakers)),
            .comparison(property: "PartitionKey", .ne, .string(events))
        )
        let scans = [EntityQuery(partition: speakers), EntityQuery(partition: events), EntityQuery(filter: others)]
        /// Thrown out of a scan when `--max-errors` is reached, so the rest is not even fetched.
        struct Stop: Error {}
        do {
            for query in try await store.holdsEntities(table: table) ? scans : [] {
                try await store.forEachEntity(table: table, query, parallel: parallel) { entity in
                    counts[entity.partitionKey, default: 0] += 1
                    validator.check(entity, line: 0)
                    if hashing { hash.add(entity) }
                    if validator.isFull { throw Stop() }
                    if validator.entitiesChecked & 0x3FFF == 0 {
                        progress(validator.entitiesChecked, max(total, validator.entitiesChecked))
                    }
                }
            }
        } catch is Stop {
            // --max-errors cut the run short: the rest is not judged.
        }
        if !validator.isFull {
            validator.finishReferences()
            try await PhotoCheck.run(store, speakers: validator.speakers, into: &validator.log)
            if let manifest, manifest.status == .complete {
                ManifestCheck.compare(manifest, counts: counts, hash: hashing ? hash : nil, into: &validator.log)
            }
        }
        progress(validator.entitiesChecked, max(total, validator.entitiesChecked))
        var overview: ReportOverview?
        if options.collectsOverview {
            let partitions = counts.keys.sorted().map {
                ReportOverview.Input(name: "\(store.displayName): \(table)/\($0)", entities: counts[$0])
            }
            overview = validator.overview(
                inputs: partitions.isEmpty ? [.init(name: store.displayName, entities: 0)] : partitions
            )
            try await SpeakerThumbnails.load(store, into: &overview!)
            overview!.elapsed = ContinuousClock.now - started
        }
        var report = ValidationReport(
            rules: rules(options).map(\.descriptor),
            findings: validator.findings,
            inputs: [store.displayName],
            entitiesChecked: validator.entitiesChecked,
            truncated: validator.isFull,
            maxErrors: options.maxErrors,
            storeAddress: store.address
        )
        report.overview = overview
        return report
    }

    /// The manifest, and what is wrong with it.
    private static func loadManifest(
        _ store: any StorageAccount,
        table: String,
        options: ValidationOptions
    ) async throws -> (SeedManifest?, String?) {
        let manifest: SeedManifest?
        do {
            manifest = try await store.entity(
                table: SeedManifest.table,
                partitionKey: table,
                rowKey: SeedManifest.rowKey
            ).map(SeedManifest.init(entity:))
        } catch let error as EntityMappingError {
            return (nil, "the seed manifest cannot be read: \(error)")
        }
        guard let manifest, manifest.status != .complete else { return (manifest, nil) }
        let state = "the seed manifest is unfinished ('\(manifest.status.rawValue)')"
        switch options.seedRunning {
        case true?: return (manifest, state + ": a seed is writing to this store now; validate when it has finished")
        case false?:
            return (manifest, state + ": a seed run was interrupted; run the same seed command again to finish it")
        case nil:
            return (
                manifest,
                state
                    + ": a seed is writing to this store now, or was interrupted (then the same seed command finishes it)"
            )
        }
    }
}
