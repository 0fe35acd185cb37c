package import SpeakEasyModel
package import SpeakEasyStorage

/// What `seed` wrote into an account, kept in the account itself as an entity of ``table``.
///
/// Written "in progress" before the first entity and "complete" after the last, so an interrupted run
/// is recognised and the same command can finish it.
package struct SeedManifest: Hashable, Sendable {
    package enum Status: String, Sendable { case inProgress = "in progress", complete }

    /// The table that holds manifests: PartitionKey = the seeded table, RowKey = `latest`.
    package static let table = "seedmanifest"
    package static let rowKey = "latest"

    package var seededTable: String
    package var status: Status
    /// The generator's options; nil when the data was imported from files (`seed --from-file`).
    package var options: GeneratorOptions?
    /// The files an import read, in order; empty for generated data.
    package var importedFiles: [String] = []
    package var generatorVersion: Int
    /// Identifies the samples the data came from (catalog and photos).
    package var samplesHash: String
    package var startedAt: EdmDateTime
    package var completedAt: EdmDateTime?
    /// Entities per partition in the table when the run completed.
    package var speakerEntities: Int
    package var eventEntities: Int
    /// ``ContentHash`` of the whole table when the run completed.
    package var contentHash: String

    package var entity: Entity {
        var properties: [Property] = [Property("Status", .string(status.rawValue))]
        if let options {
            properties += [
                Property("Seed", .string(String(options.seed))),
                Property("GeneratorVersion", .int32(Int32(generatorVersion))),
                Property("Events", .int64(Int64(options.eventCount))),
                Property("Speakers", .int64(Int64(options.speakerCount))),
                Property("From", .dateTime(options.from)),
                Property("Cutoff", .dateTime(options.cutoff)),
                Property("Resolution", .string(options.resolution.rawValue)),
                Property("DateFormat", .string(options.dateFormat.rawValue)),
                Property("PhotoBaseUrl", .string(options.photoBaseURL)),
                Property("SamplesHash", .string(samplesHash)),
            ]
        } else {
            properties += [Property("Source", .string("files")), Property("Files", .string(importedFiles.joined(separator: "\n")))]
        }
        properties.append(Property("StartedAt", .dateTime(startedAt)))
        if let completedAt { properties.append(Property("CompletedAt", .dateTime(completedAt))) }
        properties += [
            Property("SpeakerEntities", .int64(Int64(speakerEntities))),
            Property("EventEntities", .int64(Int64(eventEntities))),
            Property("ContentHash", .string(contentHash)),
        ]
        return Entity(partitionKey: seededTable, rowKey: Self.rowKey, properties: properties)
    }

    package init(seededTable: String, status: Status, options: GeneratorOptions?, samplesHash: String, startedAt: EdmDateTime) {
        self.seededTable = seededTable
        self.status = status
        self.options = options
        self.generatorVersion = SeedGenerator.version
        self.samplesHash = samplesHash
        self.startedAt = startedAt
        self.speakerEntities = 0
        self.eventEntities = 0
        self.contentHash = ""
    }

    /// Reads a manifest entity; throws when it is not one this version understands.
    package init(entity: Entity) throws(EntityMappingError) {
        func string(_ name: String) throws(EntityMappingError) -> String { try entity.requiredString(name) }
        func integer(_ name: String) throws(EntityMappingError) -> Int {
            switch entity[name] {
            case .int64(let value)?: return Int(value)
            case .int32(let value)?: return Int(value)
            default: throw entity.mappingError("\(name) is missing or not an integer")
            }
        }
        func date(_ name: String) throws(EntityMappingError) -> EdmDateTime {
            guard case .dateTime(let value)? = entity[name] else { throw entity.mappingError("\(name) is missing or not a DateTime") }
            return value
        }
        guard let status = Status(rawValue: try string("Status")) else { throw entity.mappingError("Status is unknown") }
        if case .string("files")? = entity["Source"] {
            self.init(seededTable: entity.partitionKey, status: status, options: nil, samplesHash: "", startedAt: try date("StartedAt"))
            importedFiles = try string("Files").split(separator: "\n").map(String.init)
        } else {
            guard let seed = UInt64(try string("Seed")) else { throw entity.mappingError("Seed is not a number") }
            guard let resolution = DateResolution(rawValue: try string("Resolution")) else { throw entity.mappingError("Resolution is unknown") }
            // Generator version 1 had no choice: its dates were the resolution's multiples.
            let dateFormat = entity["DateFormat"] == nil ? EventDateFormat.azure : EventDateFormat(rawValue: try string("DateFormat"))
            guard let dateFormat else { throw entity.mappingError("DateFormat is unknown") }
            let options = GeneratorOptions(
                seed: seed, eventCount: try integer("Events"), speakerCount: try integer("Speakers"), from: try date("From"),
                cutoff: try date("Cutoff"), resolution: resolution, dateFormat: dateFormat, photoBaseURL: try string("PhotoBaseUrl"))
            self.init(seededTable: entity.partitionKey, status: status, options: options, samplesHash: try string("SamplesHash"), startedAt: try date("StartedAt"))
            generatorVersion = try integer("GeneratorVersion")
        }
        if case .dateTime(let value)? = entity["CompletedAt"] { completedAt = value }
        speakerEntities = try integer("SpeakerEntities")
        eventEntities = try integer("EventEntities")
        contentHash = try string("ContentHash")
    }

    /// The manifest of `table` in an account, if `seed` left one.
    package static func load(from store: any StorageAccount, table: String) async throws -> SeedManifest? {
        guard let entity = try await store.entity(table: Self.table, partitionKey: table, rowKey: rowKey) else { return nil }
        return try SeedManifest(entity: entity)
    }

    /// Marks the run complete with what the table now holds: counts per partition and the content
    /// hash — `written` when the run wrote the whole table, else one scan of the table's digests (it
    /// held other data too), which reports progress against `expected` entities when the caller
    /// knows how many there should be (another writer may have added some) and stops when the task is
    /// cancelled. The data is flushed before the manifest says "complete". Returns the counts.
    package mutating func complete(
        in store: any StorageAccount, written: (counts: [String: Int], hash: ContentHash)?, expected: Int? = nil,
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
                    progress(SeedProgress(phase: .verifying, done: scanned, total: expected.map { max($0, scanned) } ?? 0))
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
