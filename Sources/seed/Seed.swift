import ArgumentParser
import CLISupport
import SpeakEasyData

@main
struct Seed: AsyncParsableCommand {
    static func main() async { await ToolMain.run(Self.self) }

    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Populate a storage account with reproducible SpeakEasy speakers, photos and events.",
        discussion: """
            Writes the sample speakers (and, with --speakers, generated ones), each with a photo in the \
            public 'speakers' blob container, and --events unique events dated between --from and \
            --cutoff, into the 'events' table of the account. The same samples, options and --seed give \
            the same entities on every machine; the seed is printed so a run can be repeated.

            A plain run fills only a fresh account: if the table holds data it says so and writes \
            nothing. A run that was interrupted is finished by running the same command again.

            Examples:
              seed                                    # 8 speakers, 100 events into ./speakeasy.sqlite
              seed --seed 42 --events 500             # reproducible: the same 500 events every time
              seed --from 2027-01-01 --cutoff 2027-03-31 --resolution hour
              seed --store demo.sqlite --mode merge   # upsert; re-running with the same seed changes nothing
              seed --store dev --events 20000         # into Azurite or `serve` on this machine
              seed --store azure --parallel 16        # into the account in AZURE_STORAGE_CONNECTION_STRING
              seed --reset --seed 7                   # empty the table and container, then seed
              seed --dry-run --events 1000000 --speakers 1000   # show what would be written
              sqlite3 speakeasy.sqlite 'SELECT EventDate, EventName, SpeakerName FROM events_view LIMIT 5'

            """ + ExitStatusHelp.text(),
        version: ToolVersion.current)

    @OptionGroup var storeOption: StoreOption

    @Option(parsing: .unconditional, help: ArgumentHelp("The random seed (0 … 2^64-1); default: a random one, printed.", valueName: "n"))
    var seed: UInt64?

    @Option(parsing: .unconditional, help: ArgumentHelp("How many events, unique by (name, location, speaker, date). (default: 100)", valueName: "n"))
    var events: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("How many speakers: the 8 samples, then generated ones. (default: 8)", valueName: "n"))
    var speakers: Int?

    @Option(
        help: ArgumentHelp("Earliest event date, \(DateArgument.forms), UTC. (default: today 00:00 UTC)", valueName: "date"),
        transform: DateArgument.init(parsing:))
    var from: DateArgument?

    @Option(
        help: ArgumentHelp("Latest event date, inclusive; yyyy-MM-dd means the end of that day. (default: --from + 365 days)", valueName: "date"),
        transform: DateArgument.init(parsing:))
    var cutoff: DateArgument?

    @Option(
        help: ArgumentHelp(
            "Step between possible dates: \(DateResolution.allCases.map(\.rawValue).joined(separator: ", ")). Events start from 08:00 to before 21:00 in their location's local time (standard time), on the weekday their name names ('Mobile Mondays'); at day resolution every date is 00:00 UTC, an evening in the sample locations. (default: minute)",
            valueName: "unit"))
    var resolution: DateResolution?

    @Option(
        name: .customLong("date-format"),
        help: ArgumentHelp(
            "app: only dates the app can read as Azure serves them (the resolution's steps plus 100 ns: Azure trims trailing zeros, and the app needs all 7 digits); azure: the resolution's exact steps. (default: app)",
            valueName: "app|azure"))
    var dateFormat: EventDateFormat?

    @Option(help: ArgumentHelp("When the table holds data: fresh (refuse), merge or replace (upsert by keys).", valueName: "mode"))
    var mode: SeedMode = .fresh

    @Flag(help: "Empty the table and the photo container first.")
    var reset = false

    @Flag(help: "Generate everything and show what would be written; write nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("The samples directory (catalog.json and photos). (default: ./samples if it holds a catalog.json, else the built-in copy)", valueName: "dir"))
    var samples: String?

    @Option(
        name: .customLong("from-file"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Load the entities of these data files (Atom, JSON, NDJSON or CSV) instead of generating them.",
            discussion: "Every file is read once before anything is written, so bad input writes nothing. Photos are not invented.",
            valueName: "file"))
    var fromFile: [String] = []

    @Option(name: .customLong("from-format"), help: ArgumentHelp("Format of the --from-file files, when their extension does not say.", valueName: "format"))
    var fromFormat: DataFormat?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if !fromFile.isEmpty {
            let generatorOptions = [seed != nil ? "--seed" : nil, events != nil ? "--events" : nil, speakers != nil ? "--speakers" : nil,
                from != nil ? "--from" : nil, cutoff != nil ? "--cutoff" : nil, resolution != nil ? "--resolution" : nil, dateFormat != nil ? "--date-format" : nil, samples != nil ? "--samples" : nil].compactMap { $0 }
            if let first = generatorOptions.first { throw ValidationError("\(first) generates data; it does not apply with --from-file") }
            if fromFile.contains("-") { throw ValidationError("--from-file reads every file twice (check, then write), so it takes files, not stdin ('-')") }
        }
        if let events, events < 0 { throw ValidationError("--events must be 0 or more, not \(events)") }
        if let speakers, speakers < 1 { throw ValidationError("--speakers must be at least 1, not \(speakers)") }
        try DateArgument.checkWindow(from: from, cutoff: cutoff)
    }

    func run() async throws {
        // The summary comes after the progress line is cleared, so it cannot garble it.
        let progressBar = ProgressBar(enabled: !output.quiet && Terminal.progressAllowed(dataOnStdout: false))
        do {
            let summary = fromFile.isEmpty ? try await generate(progressBar) : try await importFiles(progressBar)
            progressBar.finish()
            if !output.quiet { print(summary, terminator: "") }
        } catch let interrupted as Interruption.Interrupted {
            progressBar.finish()
            Terminal.writeError("seed: error: \(storeOption.location.displayName): interrupted; run the same command to finish\n")
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
            _ = try SeedGenerator(catalog: catalog, options: request.resolved(catalog: catalog, photoBaseURL: photoBaseURL))
        }
        let seeder = Seeder(catalog: catalog, request: request)
        let store = dryRun ? existing : try openStore()
        let report = try await Interruption.cancelling {
            try await seeder.run(store: store, photoBaseURL: photoBaseURL) { progress in
                let noun = [.reading, .verifying].contains(progress.phase) ? "entities" : progress.phase.rawValue
                progressBar.update(ProgressLine(progress.phase.rawValue, done: Int64(progress.done), total: Int64(progress.total), unit: .count(noun)))
            }
        }
        return SummaryPrinter.summary(of: report, store: storeOption.location.displayName, requests: store?.requestCounts)
    }

    /// `--from-file`: the same store rules as generated data, for entities read from files.
    private func importFiles(_ progressBar: ProgressBar) async throws -> String {
        var importer = FileImporter(files: fromFile, request: storeRequest())
        importer.readOptions = EntityFiles.ReadOptions(format: fromFormat)
        let show: @Sendable (SeedProgress) -> Void = { progress in
            let label = progress.phase == .events ? "writing" : "reading"
            progressBar.update(ProgressLine(label, done: Int64(progress.done), total: Int64(progress.total), unit: .count("entities")))
        }
        // The files are checked before the store is even opened: bad input creates and writes nothing.
        let checked = try importer.check(progress: show)
        let store = dryRun ? try storeOption.openIfPresent() : try openStore()
        let report = try await Interruption.cancelling { [importer] in try await importer.run(store: store, checked: checked, progress: show) }
        return SummaryPrinter.summary(of: report, store: storeOption.location.displayName, requests: store?.requestCounts)
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

