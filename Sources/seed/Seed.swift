import ArgumentParser
import CLISupport
import SpeakEasyData

@main
struct Seed: AsyncParsableCommand {
    static func main() async { await ToolMain.run(Self.self, exitStatus: Self.exitStatus) }

    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Populate a storage account with reproducible SpeakEasy speakers, photos and events.",
        discussion: """
            Writes the sample speakers (and, with --speakers, generated ones), each with a photo in the \
            public 'speakers' blob container, and --events unique events dated between --from and \
            --cutoff, into the 'events' table of the account. The same samples, --seed, --events, \
            --speakers and dates give the same entities on every machine, on any day. --from defaults \
            to today, so the summary prints the whole command that repeats a run ('repeat with').

            A plain run fills only a fresh account: if the table holds data it says so and writes \
            nothing. A run that was interrupted is finished by running the same command again. An \
            Azure account is sent --parallel batches of up to 100 entities at once.

            Examples:
              seed                                   # 100 events into ./speakeasy.sqlite
              seed --seed 42 --from 2027-01-01       # the same data any day
              seed --from 2027-01-01 --cutoff 2027-03-31 --resolution hour
              seed --store demo.sqlite --mode merge  # upsert: a re-run changes nothing
              seed --store dev --events 20000        # into Azurite or `serve` here
              seed --store azure --parallel 16       # to $AZURE_STORAGE_CONNECTION_STRING
              seed --reset --seed 7                  # empty table and photos, then seed
              seed --dry-run --events 1000000 --speakers 1000  # what would be written
              seed --from-file talks.csv --photos pics  # data files, their photos
              seed --from-file eu.csv --delimiter ';' --strict  # refuse bad data
              seed --from-file win.csv --encoding windows-1252  # Excel on Windows
              sqlite3 speakeasy.sqlite \\
                'SELECT EventDate, EventName, SpeakerName FROM events_view LIMIT 5'
            """,
        version: ToolVersion.current
    )

    /// The last paragraph of `--help`.
    static let exitStatus = ExitStatusHelp.text(
        output: "the store cannot be created, is read-only, or (a plain run) holds data"
    )

    @OptionGroup var storeOption: StoreOption

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The random seed (0 … 2^64-1); default: a random one, printed.", valueName: "n")
    )
    var seed: UInt64?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How many events, unique by (name, location, speaker, date). (default: 100)", valueName: "n")
    )
    var events: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How many speakers: the 8 samples, then generated ones. (default: 8)", valueName: "n")
    )
    var speakers: Int?

    @Option(
        help: ArgumentHelp(
            "Earliest event date, \(DateArgument.forms), UTC. (default: today 00:00 UTC)",
            valueName: "date"
        ),
        transform: DateArgument.init(parsing:)
    )
    var from: DateArgument?

    @Option(
        help: ArgumentHelp(
            "Latest event date, inclusive; yyyy-MM-dd means the end of that day. (default: --from + 365 days)",
            valueName: "date"
        ),
        transform: DateArgument.init(parsing:)
    )
    var cutoff: DateArgument?

    @Option(
        help: ArgumentHelp(
            "Step between possible dates: \(DateResolution.allCases.map(\.rawValue).joined(separator: ", ")). Events start from 08:00 to before 21:00 in their location's local time (standard time), on the weekday their name names ('Mobile Mondays'); at day resolution every date is 00:00 UTC, an evening in the sample locations. (default: minute)",
            valueName: "unit"
        )
    )
    var resolution: DateResolution?

    @Option(
        name: .customLong("date-format"),
        help: ArgumentHelp(
            "app: each step of the resolution plus 100 ns, which the app reads as Azure serves it: Azure trims trailing zeros, so a date on a minute is a whole second, served without a fraction, which the app's date pattern refuses; azure: the exact steps, to exercise that bug. (default: app)",
            valueName: "app|azure"
        )
    )
    var dateFormat: EventDateFormat?

    @Option(
        name: .customLong("mode"),
        help: ArgumentHelp(
            "When the table holds data: fresh refuses to write; merge and replace upsert by keys (merge keeps the properties a run does not write). (default: fresh)",
            valueName: "mode"
        )
    )
    var modeGiven: SeedMode?

    // Optional, so that the help gives the default as every option does, at the end of its text
    // and before the parser's list of values.
    private var mode: SeedMode { modeGiven ?? .fresh }

    @Flag(help: "Empty the table and the photo container first.")
    var reset = false

    @Flag(help: "Generate everything and show what would be written; write nothing.")
    var dryRun = false

    @Option(
        help: ArgumentHelp(
            "The samples directory (catalog.json and photos). (default: ./samples if it holds a catalog.json, else the built-in copy)",
            valueName: "dir"
        )
    )
    var samples: String?

    @Option(
        name: .customLong("from-file"),
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "Load the entities of these data files (Atom, JSON, NDJSON or CSV) instead of generating them.",
            discussion:
                "Every file is read once before anything is written, so bad input writes nothing. Photos are not invented.",
            valueName: "file"
        )
    )
    var fromFile: [String] = []

    @Option(
        name: .customLong("from-format"),
        help: ArgumentHelp("Format of the --from-file files, when their extension does not say.", valueName: "format")
    )
    var fromFormat: DataFormat?

    @Option(help: DelimiterArgument.help, transform: DelimiterArgument.init(parsing:))
    var delimiter: DelimiterArgument?

    @Option(help: TextEncoding.help)
    var encoding: TextEncoding?

    @Flag(help: "With --from-file: refuse data that breaks validate's rules (exit 65) instead of warning.")
    var strict = false

    @Option(
        help: ArgumentHelp(
            "Upload the speakers' photos from this directory: those of --from-file's speakers, or alone, of the store's.",
            discussion:
                "A file is a speaker's photo when its name is the blob name of the speaker's ImageUrl (or as --photo-name says).",
            valueName: "dir"
        )
    )
    var photos: String?

    @Option(
        name: .customLong("photo-name"),
        help: ArgumentHelp(
            "With --photos: a photo's file name from {blob}, {Name} and {RowKey}. (default: {blob})",
            valueName: "rule"
        ),
        transform: { text in
            do { return try PhotoNameRule(parsing: text) } catch { throw ValidationError("--photo-name \(error)") }
        }
    )
    var photoName: PhotoNameRule?

    @OptionGroup var output: OutputOptions

    /// The generator's options that the command line gives, by name: they do not apply when files
    /// or photos are loaded instead.
    private var generatorOptionsGiven: [String] {
        [
            seed != nil ? "--seed" : nil, events != nil ? "--events" : nil, speakers != nil ? "--speakers" : nil,
            from != nil ? "--from" : nil,
            cutoff != nil ? "--cutoff" : nil, resolution != nil ? "--resolution" : nil,
            dateFormat != nil ? "--date-format" : nil,
            samples != nil ? "--samples" : nil,
        ].compactMap { $0 }
    }

    func validate() throws {
        if !fromFile.isEmpty {
            if let first = generatorOptionsGiven.first {
                throw ValidationError("\(first) generates data; it does not apply with --from-file")
            }
            if fromFile.contains("-") {
                throw ValidationError(
                    "--from-file reads every file twice (check, then write), so it takes files, not stdin ('-')"
                )
            }
        }
        if photos == nil, photoName != nil { throw ValidationError("--photo-name applies to the files of --photos") }
        if photos != nil, fromFile.isEmpty {
            if let first = (generatorOptionsGiven + (reset ? ["--reset"] : [])).first {
                throw ValidationError(
                    "\(first) does not apply to --photos alone, which uploads photos for the store's speakers"
                )
            }
        }
        if fromFile.isEmpty,
            let fileOption = [
                delimiter != nil ? "--delimiter" : nil, encoding != nil ? "--encoding" : nil, strict ? "--strict" : nil,
            ].compactMap({ $0 }).first
        {
            throw ValidationError("\(fileOption) applies to the files of --from-file")
        }
        if let events, events < 0 { throw ValidationError("--events must be 0 or more, not \(events)") }
        if let speakers, speakers < 1 { throw ValidationError("--speakers must be at least 1, not \(speakers)") }
        try DateArgument.checkWindow(from: from, cutoff: cutoff)
        if case .local(let path) = storeOption.location {
            try OutputClash.refuse(output: path, option: "--store", uses: fromFile.map(OutputClash.Use.input))
        }
    }

    func run() async throws {
        // Marked before anything else is done: a plain seed started a moment after a merge is told
        // that a seed is writing (69), not that the table holds data (73).
        if !dryRun { SeedLock.hold(storeOption.location) }
        // The summary comes after the progress line is cleared, so it cannot garble it.
        let progressBar = ProgressBar(enabled: !output.quiet && Terminal.progressAllowed(dataOnStdout: false))
        do {
            let summary =
                !fromFile.isEmpty
                ? try await importFiles(progressBar)
                : photos != nil ? try await uploadPhotos(progressBar) : try await generate(progressBar)
            progressBar.finish()
            if !output.quiet { print(summary, terminator: "") }
        } catch let interrupted as Interruption.Interrupted {
            progressBar.finish()
            Terminal.writeError(
                "seed: error: \(storeOption.location.displayName): interrupted; run the same command to finish\n"
            )
            throw ExitCode(interrupted.exitCode)
        } catch {
            progressBar.finish()
            throw ToolExit.report(error, tool: "seed")
        }
    }

    /// Generates the data and writes it; returns the summary.
    private func generate(_ progressBar: ProgressBar) async throws -> String {
        let catalog = try SamplesLocator.catalog(given: samples)
        var request = storeRequest()
        request.seed = seed
        request.eventCount = events
        request.speakerCount = speakers
        request.from = from?.value
        request.cutoff = cutoff?.asCutoff
        request.resolution = resolution
        request.dateFormat = dateFormat

        // Options that cannot be met are refused before the store is even created.
        let location = storeOption.location
        let photoBaseURL = location.blobURL(container: DataContract.photoContainer, blob: "")
        let existing = try storeOption.openIfPresent()
        // (An existing store may hold an interrupted run whose options fill the gaps; Seeder checks those.)
        if existing == nil {
            _ = try SeedGenerator(
                catalog: catalog,
                options: request.resolved(catalog: catalog, photoBaseURL: photoBaseURL)
            )
        }
        var seeder = Seeder(catalog: catalog, request: request)
        seeder.beforeCountingTable = { [location = storeOption.location] in try await SeedLock.waitForTurn(location) }
        let store = dryRun ? existing : try openStore()
        let report = try await Interruption.cancelling { [seeder] in
            try await seeder.run(store: store, photoBaseURL: photoBaseURL) { progress in
                let noun = [.reading, .verifying].contains(progress.phase) ? "entities" : progress.phase.rawValue
                progressBar.update(
                    ProgressLine(
                        progress.phase.rawValue,
                        done: Int64(progress.done),
                        total: Int64(progress.total),
                        unit: .count(noun)
                    )
                )
            }
        }
        return SummaryPrinter.summary(
            of: report,
            store: storeOption.location.displayName,
            samples: samples,
            requests: (store as? any CountsRequests)?.requestCounts
        )
    }

    /// `--from-file`: the same store rules as generated data, for entities read from files.
    private func importFiles(_ progressBar: ProgressBar) async throws -> String {
        var importer = FileImporter(files: fromFile, request: storeRequest())
        importer.beforeCountingTable = { [location = storeOption.location] in try await SeedLock.waitForTurn(location) }
        importer.readOptions = EntityFiles.ReadOptions(
            format: fromFormat,
            delimiter: delimiter?.byte,
            encoding: encoding
        )
        let show: @Sendable (SeedProgress) -> Void = { progress in
            let label = progress.phase == .events ? "writing" : "reading"
            progressBar.update(
                ProgressLine(label, done: Int64(progress.done), total: Int64(progress.total), unit: .count("entities"))
            )
        }
        // The files are checked before the store is even opened: bad input creates and writes nothing.
        var speakers: [PhotoPlan.Speaker] = []
        let (checked, findings) = try importer.check(
            validating: ValidationOptions(),
            storedSpeakers: try await speakersKept(),
            progress: show
        ) { entity, _, _ in
            if photos != nil, let speaker = PhotoPlan.Speaker(entity) { speakers.append(speaker) }
        }
        progressBar.finish()
        try LoadFindings(report: findings, validateCommand: validateCommand()).tell(strict: strict, quiet: output.quiet)
        let photoPlan = try photos.map {
            try PhotoPlan(directory: $0, rule: photoName ?? .byBlobName, speakers: speakers)
        }
        // A speaker's ImageUrl names the account its photo is uploaded into, whatever the file said.
        importer.imageURLs =
            photoPlan?.imageURLRewrites(of: speakers) { [location = storeOption.location] blob in
                location.blobURL(container: DataContract.photoContainer, blob: blob)
            } ?? [:]
        let store = dryRun ? try storeOption.openIfPresent() : try openStore()
        let report = try await Interruption.cancelling { [importer] in
            try await importer.run(store: store, checked: checked, progress: show)
        }
        var summary = SummaryPrinter.summary(
            of: report,
            store: storeOption.location.displayName,
            requests: (store as? any CountsRequests)?.requestCounts
        )
        if let photoPlan {
            let written = dryRun ? nil : try await photoPlan.upload(to: store!, progress: photoProgress(progressBar))
            summary += SummaryPrinter.photos(photoPlan, written: written, rewritten: importer.imageURLs.count)
        }
        return summary
    }

    /// The speakers a load keeps beside its own: those of the store, unless it starts afresh (a plain
    /// run fills only an empty table; `--reset` empties it). Events of the files may name them.
    private func speakersKept() async throws -> [(rowKey: String, name: String?)] {
        guard mode != .fresh, !reset, let store = try storeOption.openIfPresent() else { return [] }
        var kept: [(rowKey: String, name: String?)] = []
        do {
            try await store.forEachEntity(table: DataContract.table, partition: DataContract.speakersPartition) {
                entity in
                guard case .string(let name)? = entity.properties.first(where: { $0.name == "Name" })?.value else {
                    kept.append((entity.rowKey, nil))
                    return
                }
                kept.append((entity.rowKey, name))
            }
        } catch let error as StorageError where error.reason == .notFound {
            return []  // no table yet: nothing to keep
        }
        return kept
    }

    /// `--photos` alone: the photos of the speakers the store holds.
    private func uploadPhotos(_ progressBar: ProgressBar) async throws -> String {
        guard let directory = photos else { return "" }
        // Read-only first, so that a store that is not there is reported, not created empty.
        let reading = try storeOption.open(readOnly: true)
        var speakers: [PhotoPlan.Speaker] = []
        try await reading.forEachEntity(table: DataContract.table, partition: DataContract.speakersPartition) {
            entity in
            if let speaker = PhotoPlan.Speaker(entity) { speakers.append(speaker) }
        }
        let plan = try PhotoPlan(directory: directory, rule: photoName ?? .byBlobName, speakers: speakers)
        let written =
            dryRun
            ? nil
            : try await plan.upload(to: openStore(), progress: photoProgress(progressBar))
        let heading =
            dryRun
            ? "Dry run: nothing was written to \(storeOption.location.displayName).\n"
            : "Photos into \(storeOption.location.displayName).\n"
        return heading + SummaryPrinter.photos(plan, written: written)
    }

    private func photoProgress(_ progressBar: ProgressBar) -> @Sendable (SeedProgress) -> Void {
        { progress in
            progressBar.update(
                ProgressLine("photos", done: Int64(progress.done), total: Int64(progress.total), unit: .count("photos"))
            )
        }
    }

    /// The `validate` command that checks the --from-file files as they were read.
    private func validateCommand() -> String {
        var words = ["validate"] + fromFile
        if let fromFormat { words += ["--from-format", fromFormat.rawValue] }
        if let delimiter {
            words += ["--delimiter", delimiter.byte == 0x09 ? "tab" : String(UnicodeScalar(delimiter.byte))]
        }
        if let encoding { words += ["--encoding", encoding.rawValue] }
        return words.map(ShellWord.quoted).joined(separator: " ")
    }

    /// What both kinds of run ask of the store.
    private func storeRequest() -> SeedRequest {
        var request = SeedRequest()
        request.mode = mode
        request.reset = reset
        request.dryRun = dryRun
        return request
    }

    /// Opens (or creates) the store to write, and marks it as being seeded until the process ends
    /// (validate tells a running seed apart by it). A dry run never creates the store; it only looks at
    /// one that is there. Only upserts may run beside another seed.
    private func openStore() throws -> any StorageAccount {
        let store = try storeOption.open()
        if !SeedLock.hold(storeOption.location), mode == .fresh || reset { throw SeedRefusal.seedRunning(in: store) }
        return store
    }
}
