import ArgumentParser
import CLISupport
import SpeakEasyData

@main
struct Validate: AsyncParsableCommand {
    static func main() async { await ToolMain.run(Self.self, exitStatus: Self.exitStatus) }

    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract:
            "Check SpeakEasy data in a storage account or in files: dates, speaker references, duplicates, the contract, photos.",
        discussion: """
            With no file, checks the storage account (--store): the events table's speakers and Events \
            partitions, the photo container and the seed manifest. With files (any format export reads, \
            '-' for stdin), checks their entities; speakers and events may be in one file or several, \
            in any order. Everything is read once, in one pass. A remote account's table is read as \
            --parallel ranges at once, in key order, so the report is the same at any --parallel.

            The report goes to stdout (or --output, written atomically) in --report's format; the \
            summary line also goes to stderr unless the text report is on stdout already. See \
            --list-rules for every rule id, usable with --rule and --skip (a group such as 'dates' \
            names all its rules).

            Examples:
              validate                            # the local account, speakeasy.sqlite
              validate events.csv speakers.csv --report github
              validate export.json --report json --output report.json
              validate events.ndjson --rule dates,references --date-format azure
              validate --store prod-copy.sqlite --skip photos.unused --max-errors 50
              validate --store azure --report junit --output report.xml  # photos too
              validate --report html --output report.html   # a page to open in a browser
              validate events.csv --cutoff 2026-12-31 --warnings-as-errors
              validate excel.csv --encoding windows-1252  # Excel's CSV on Windows
            """,
        version: ToolVersion.current
    )

    /// The last paragraph of `--help`.
    static let exitStatus = ExitStatusHelp.text(
        findings: "errors found (or warnings, with --warnings-as-errors)",
        output: "the report file (--output) cannot be created"
    )

    @Argument(
        help: ArgumentHelp("Data files to check ('-' for stdin). None: check the storage account.", valueName: "file")
    )
    var files: [String] = []

    @Option(
        name: .customLong("from-format"),
        help: ArgumentHelp(
            "Format of the input files: atom, json, ndjson, csv. (default: by extension, else sniffed)",
            valueName: "format"
        )
    )
    var fromFormat: DataFormat?

    @Option(help: DelimiterArgument.help, transform: DelimiterArgument.init(parsing:))
    var delimiter: DelimiterArgument?

    @Option(help: TextEncoding.help)
    var encoding: TextEncoding?

    @OptionGroup var storeOption: StoreOption

    @Option(
        help: ArgumentHelp(
            "Report format: text, json, junit, github, sarif, html (one self-contained page: the verdict, events per month, the dates as the app reads them, events per speaker with photos, and the findings by rule).",
            valueName: "format"
        )
    )
    var report: ReportFormat = .text

    @Option(help: ArgumentHelp("Write the report to this file (atomically) instead of stdout.", valueName: "file"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Only these rules: ids or groups, comma-separated or repeated. (default: all)",
            valueName: "ids"
        )
    )
    var rule: [String] = []

    @Option(help: ArgumentHelp("Skip these rules: ids or groups, comma-separated or repeated.", valueName: "ids"))
    var skip: [String] = []

    // Unconditional, so `-1` is read as its value (and refused as such), not as an option.
    @Option(
        name: .customLong("max-errors"),
        parsing: .unconditional,
        help: ArgumentHelp("Stop after N errors.", valueName: "N")
    )
    var maxErrors: Int?

    @Flag(name: .customLong("warnings-as-errors"), help: "Warnings fail the run too (exit 1).")
    var warningsAsErrors = false

    @Option(
        name: .customLong("date-format"),
        help: ArgumentHelp(
            "Whose reading of EventDate to judge, as Azure serves it (trailing zeros trimmed). app: the app's parser, which reads 1 to 7 fractional digits but refuses a date on a whole second, served with none; exact7: a client that needs exactly 7 digits (.NET's fffffff); azure: what the service accepts, 0-7 digits and Z. (default: app)",
            valueName: "app|exact7|azure"
        )
    )
    // Optional, so that the help gives the default once, as every option does (see seed's --mode).
    var dateFormat: EventDateCheck?

    @Option(help: ArgumentHelp("Earliest allowed EventDate: \(DateArgument.forms), UTC.", valueName: "date"))
    var from: DateArgument?

    @Option(
        help: ArgumentHelp(
            "Latest allowed EventDate, inclusive; yyyy-MM-dd means the end of that day.",
            valueName: "date"
        )
    )
    var cutoff: DateArgument?

    @Flag(name: .customLong("list-rules"), help: "Print every rule (id, severity, what it checks) and exit.")
    var listRules = false

    @OptionGroup var outputOptions: OutputOptions

    func validate() throws {
        if let maxErrors, maxErrors < 1 { throw ValidationError("--max-errors must be at least 1, not \(maxErrors)") }
        try DateArgument.checkWindow(from: from, cutoff: cutoff)
        if files.isEmpty, delimiter != nil {
            throw ValidationError("--delimiter reads CSV files; it does not apply to the storage account")
        }
        if files.isEmpty, encoding != nil {
            throw ValidationError("--encoding reads files; it does not apply to the storage account")
        }
        if delimiter != nil, !DelimiterArgument.mayReadCSV(files, fromFormat: fromFormat) {
            let which = files.count == 1 ? "\(files[0]) is not CSV" : "none of \(files.joined(separator: ", ")) is CSV"
            throw ValidationError("--delimiter reads CSV files, and \(which)")
        }
        try storeOption.refuse(besides: files)
        try OutputClash.refuse(
            output: output,
            option: "--output",
            uses: OutputClash.Use.sources(files: files, store: storeOption.location)
        )
        let selected = try selectedRules()
        guard !selected.isEmpty else {
            throw ValidationError("--rule and --skip leave no rule to run; see --list-rules")
        }
        if !files.isEmpty, selected.allSatisfy(\.needsStore) {
            let ids = Rule.allCases.filter(selected.contains).map(\.id).joined(separator: ", ")
            throw ValidationError(
                "no rule left to run on files: \(ids) \(selected.count == 1 ? "checks" : "check") a storage account; "
                    + "give --store instead of files, or see --list-rules"
            )
        }
    }

    /// The rules --rule and --skip leave.
    func selectedRules() throws -> Set<Rule> {
        func resolve(_ values: [String], option: String) throws -> Set<Rule> {
            var rules: Set<Rule> = []
            for name in values.flatMap({ $0.split(separator: ",") }).map({ String($0).trimmingCharacters(in: " ") })
            where !name.isEmpty {
                let matched = Rule.matching(name)
                if matched.isEmpty {
                    throw ValidationError("\(option) \(name): no such rule or group; see --list-rules")
                }
                rules.formUnion(matched)
            }
            return rules
        }
        var rules = rule.isEmpty ? Set(Rule.allCases) : try resolve(rule, option: "--rule")
        rules.subtract(try resolve(skip, option: "--skip"))
        return rules
    }

    func run() async throws {
        if listRules {
            for rule in Rule.allCases {
                print(
                    "\(rule.id.padding(24)) \(rule.severity.rawValue.padding(8)) \(rule.needsStore ? "[store] " : "")\(rule.summary)"
                )
            }
            return
        }
        var options = ValidationOptions()
        options.rules = try selectedRules()
        options.dateFormat = dateFormat ?? .app
        options.from = from?.value
        options.cutoff = cutoff?.asCutoff
        options.maxErrors = maxErrors
        options.warningsAsErrors = warningsAsErrors
        options.collectsOverview = report == .html

        // The report comes after the progress line is cleared, so it cannot garble it.
        let progressBar = ProgressBar(enabled: !outputOptions.quiet && Terminal.progressAllowed(dataOnStdout: false))
        let result: ValidationReport
        do {
            if files.isEmpty {
                options.seedRunning = SeedLock.isHeld(storeOption.location)  // before the store is opened: see SeedLock
                let store = try storeOption.openForReading()
                result = try await StoreValidation.run(
                    store,
                    options: options,
                    parallel: storeOption.readParallel
                ) { done, total in
                    progressBar.update(
                        ProgressLine("validate", done: Int64(done), total: Int64(total), unit: .count("entities"))
                    )
                }
            } else {
                let readOptions = EntityFiles.ReadOptions(
                    format: fromFormat,
                    delimiter: delimiter?.byte,
                    encoding: encoding
                )
                result = try await FileValidation.run(files, options: options, readOptions: readOptions) { progress in
                    progressBar.update(
                        ProgressLine(
                            "validate",
                            done: progress.bytesRead,
                            total: progress.bytesTotal,
                            unit: .bytes,
                            entities: progress.entities
                        )
                    )
                }
            }
            progressBar.finish()
            let toStdout = output == nil || output == "-"
            let colour = toStdout && Terminal.colourEnabledOnStdout
            var bytes = report.writer(colour: colour, toolVersion: ToolVersion.current).render(result)
            let file = try OutputFile(path: output ?? "-")
            try file.drain(&bytes)
            try file.commit()
            if !outputOptions.quiet, !(toStdout && report == .text) {
                Terminal.writeError("validate: \(ValidationSummary.line(result))\n")
            }
        } catch {
            progressBar.finish()
            throw ToolExit.report(error, tool: "validate")
        }
        if result.findings.contains(where: { options.fails($0.severity) }) { throw ExitCode(1) }
    }
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }

    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text.removeFirst() }
        while text.last == set { text.removeLast() }
        return String(text)
    }
}
