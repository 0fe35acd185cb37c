/// `validate --store`: the `events` table (speakers first, then events, then any other partition),
/// the photo container and the seed manifest.
package enum StoreValidation {
    package static func rules(_ options: ValidationOptions) -> [Rule] {
        Rule.allCases.filter { options.rules.contains($0) }
    }

    package static func run(_ store: any StorageAccount, options: ValidationOptions, progress: (Int, Int) -> Void = { _, _ in }) async throws
        -> ValidationReport
    {
        let table = DataContract.table
        let counts = try await store.entityCounts(table: table)
        var validator = Validator(options: options, expectedEvents: counts[DataContract.eventsPartition] ?? 0)
        validator.begin(.table(table))
        let manifest = try await loadManifest(store, table: table, into: &validator)
        let hashing = manifest?.status == .complete && validator.log.isOn(.manifestHash)
        var hash = ContentHash()

        // Speakers first, so events meet known speakers; the store's own key order would put
        // "Events" before "speakers".
        let total = counts.values.reduce(0, +)
        let partitions =
            [DataContract.speakersPartition, DataContract.eventsPartition].filter { counts[$0] != nil }
            + counts.keys.filter { $0 != DataContract.speakersPartition && $0 != DataContract.eventsPartition }.sorted()
        /// Thrown out of a scan when `--max-errors` is reached, so the rest is not even fetched.
        struct Stop: Error {}
        do {
            for partition in partitions {
                try await store.forEachEntity(table: table, partition: partition) { entity in
                    validator.check(entity, line: 0)
                    if hashing { hash.add(entity) }
                    if validator.isFull { throw Stop() }
                    if validator.entitiesChecked & 0x3FFF == 0 { progress(validator.entitiesChecked, total) }
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
        progress(validator.entitiesChecked, total)
        return ValidationReport(
            rules: rules(options).map(\.descriptor), findings: validator.findings, inputs: [store.displayName],
            entitiesChecked: validator.entitiesChecked, truncated: validator.isFull, maxErrors: options.maxErrors)
    }

    private static func loadManifest(_ store: any StorageAccount, table: String, into validator: inout Validator) async throws -> SeedManifest? {
        let manifest: SeedManifest?
        do {
            manifest = try await SeedManifest.load(from: store, table: table)
        } catch let error as EntityMappingError {
            validator.log.add(.manifestIncomplete, "the seed manifest cannot be read: \(error)", at: ManifestCheck.location)
            return nil
        }
        if let manifest, manifest.status != .complete {
            let state = "the seed manifest is unfinished ('\(manifest.status.rawValue)')"
            let message: String
            switch validator.options.seedRunning {
            case true?: message = state + ": a seed is writing to this store now; validate when it has finished"
            case false?: message = state + ": a seed run was interrupted; run the same seed command again to finish it"
            case nil: message = state + ": a seed is writing to this store now, or was interrupted (then the same seed command finishes it)"
            }
            validator.log.add(.manifestIncomplete, message, at: ManifestCheck.location)
        }
        return manifest
    }
}
