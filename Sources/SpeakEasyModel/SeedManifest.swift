/// What `seed` wrote into an account, kept in the account itself as an entity of ``table``.
///
/// Written "in progress" before the first entity and "complete" after the last, so an interrupted run
/// is recognised and the same command can finish it. The record is data that `seed` writes and
/// `validate` reads; writing it is seeding's (`SeedManifest+Store`).
package struct SeedManifest: Hashable, Sendable {
    package enum Status: String, Sendable {
        case inProgress = "in progress"
        case complete
    }

    /// The table that holds manifests: PartitionKey = the seeded table, RowKey = `latest`.
    package static let table = "seedmanifest"
    package static let rowKey = "latest"

    package var seededTable: String
    package var status: Status
    /// The generator's options; nil when the data was imported from files (`seed --from-file`).
    package var options: GeneratorOptions?
    /// The files an import read, in order; empty for generated data.
    package var importedFiles: [String] = []
    /// The version of the generator that made the data; 0 for data imported from files.
    package var generatorVersion: Int
    /// Identifies the samples the data came from (catalog and photos).
    package var samplesHash: String
    package var startedAt: EdmDateTime
    /// The run emptied the table and photos first (`seed --reset`): done before the manifest is
    /// written, so an interrupted one is finished without emptying them again.
    package var emptiedFirst = false
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
            properties += [
                Property("Source", .string("files")), Property("Files", .string(importedFiles.joined(separator: "\n"))),
            ]
        }
        properties.append(Property("StartedAt", .dateTime(startedAt)))
        if emptiedFirst { properties.append(Property("EmptiedFirst", .boolean(true))) }
        if let completedAt { properties.append(Property("CompletedAt", .dateTime(completedAt))) }
        properties += [
            Property("SpeakerEntities", .int64(Int64(speakerEntities))),
            Property("EventEntities", .int64(Int64(eventEntities))),
            Property("ContentHash", .string(contentHash)),
        ]
        return Entity(partitionKey: seededTable, rowKey: Self.rowKey, properties: properties)
    }

    package init(
        seededTable: String,
        status: Status,
        options: GeneratorOptions?,
        generatorVersion: Int,
        samplesHash: String,
        startedAt: EdmDateTime
    ) {
        self.seededTable = seededTable
        self.status = status
        self.options = options
        self.generatorVersion = generatorVersion
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
            guard case .dateTime(let value)? = entity[name] else {
                throw entity.mappingError("\(name) is missing or not a DateTime")
            }
            return value
        }
        guard let status = Status(rawValue: try string("Status")) else {
            throw entity.mappingError("Status is unknown")
        }
        if case .string("files")? = entity["Source"] {
            self.init(
                seededTable: entity.partitionKey,
                status: status,
                options: nil,
                generatorVersion: 0,
                samplesHash: "",
                startedAt: try date("StartedAt")
            )
            importedFiles = try string("Files").split(separator: "\n").map(String.init)
        } else {
            guard let seed = UInt64(try string("Seed")) else { throw entity.mappingError("Seed is not a number") }
            guard let resolution = DateResolution(rawValue: try string("Resolution")) else {
                throw entity.mappingError("Resolution is unknown")
            }
            // Generator version 1 had no choice: its dates were the resolution's multiples.
            let dateFormat =
                entity["DateFormat"] == nil
                ? EventDateFormat.azure : EventDateFormat(rawValue: try string("DateFormat"))
            guard let dateFormat else { throw entity.mappingError("DateFormat is unknown") }
            let options = GeneratorOptions(
                seed: seed,
                eventCount: try integer("Events"),
                speakerCount: try integer("Speakers"),
                from: try date("From"),
                cutoff: try date("Cutoff"),
                resolution: resolution,
                dateFormat: dateFormat,
                photoBaseURL: try string("PhotoBaseUrl")
            )
            self.init(
                seededTable: entity.partitionKey,
                status: status,
                options: options,
                generatorVersion: 0,
                samplesHash: try string("SamplesHash"),
                startedAt: try date("StartedAt")
            )
            generatorVersion = try integer("GeneratorVersion")
        }
        if case .dateTime(let value)? = entity["CompletedAt"] { completedAt = value }
        if case .boolean(true)? = entity["EmptiedFirst"] { emptiedFirst = true }
        speakerEntities = try integer("SpeakerEntities")
        eventEntities = try integer("EventEntities")
        contentHash = try string("ContentHash")
    }
}
