import ArgumentParser
import CLISupport
import SpeakEasyData

@main
struct Export: AsyncParsableCommand {
    static func main() async { await ToolMain.run(Self.self, exitStatus: Self.exitStatus) }

    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Convert SpeakEasy data between Atom, JSON, NDJSON and CSV, from files or a storage account.",
        discussion: """
            Sources are data files (any number; '-' is stdin) or, when no file is given, the storage \
            account's table (--store, --table, --partition). Each file's format comes from \
            --from-format, else its extension (.atom/.xml, .json, .ndjson/.jsonl, .csv/.tsv), else its \
            first bytes. The output goes to --to (written under a temporary name and renamed when \
            complete, so a failed run leaves nothing) or stdout, in --format, else the format --to's \
            extension names (another extension is refused), else JSON.

            A .tsv file is tab-separated, read and written, unless --delimiter says otherwise. Files \
            are UTF-8; a UTF-16 file with its byte order mark (Excel's Unicode Text) is read as \
            such, tab-separated; --encoding reads another (windows-1252 for Excel's CSV on Windows).

            No value or type is ever changed: Int64 stays exact, 10.0 stays a Double, DateTime keeps its \
            100-ns ticks (always written with 7 fractional digits). Lossy targets are opt-in: plain CSV \
            and --metadata none keep values but not their types; use --typed CSV (Azure Storage \
            Explorer's layout) or JSON to keep both. Plain CSV writes an empty string as "" and leaves \
            the cell of an absent property empty, and reads them back so; but in a CSV whose header \
            is quoted cell by cell (Python's csv.QUOTE_ALL), "" is an absent property too.

            --spreadsheet writes CSV for a person to open in LibreOffice Calc or Excel: the columns a \
            person reads first (EventDate, EventName, EventLocation, SpeakerName, EventDescription, \
            SpeakerKey; Name, Title, Bio, ImageUrl), the keys last, no Timestamp; dates as \
            2026-03-01 18:30:00 in UTC (the header says 'EventDate (UTC)'), which spreadsheets take \
            for dates; a UTF-8 byte order mark. It is not read back: export and validate refuse it.

            An Atom feed's <updated>, and each entry's, is the time of writing in whole seconds \
            (2026-03-01T18:30:05Z), as Azure writes the time of its response; the entity's own time is \
            its Timestamp property.

            Memory stays flat (a few MB) whatever the input size, except with --sort, which holds every \
            entity in memory to order them: about three times the size of the data as JSON.

            A remote account's table (Azure, serve) is read as --parallel ranges at once, cut where its \
            keys say, and written in key order: the same bytes as --parallel 1, with at most 1.5 \
            times --parallel pages of 1,000 in memory (those being read, and half as many read \
            ahead): 24 at 16, about 40 MB of the seeded events. A local account file is read in one \
            scan.

            Examples:
              export --partition Events --to events.csv    # the app's events, plain CSV
              export --partition Events --sort EventDate --to events.csv
              export --partition Events --spreadsheet --to events.csv  # for Calc or Excel
              export --store azure --partition Events --to events.json  # from Azure
              export --store azure --parallel 32 --to all.json  # 32 ranges at once
              export feed.atom --to feed.json              # to Azure's JSON
              export events.csv --format atom > events.atom
              export data.json --to data.typed.csv --typed  # lossless CSV
              export events.json --to events.tsv           # tab-separated
              export excel.csv --encoding windows-1252 --to events.json
              export big.json --format ndjson --metadata full | head
              export a.csv b.csv --to all.json --columns Name,EventName,EventDate
            """,
        version: ToolVersion.current
    )

    /// The last paragraph of `--help`.
    static let exitStatus = ExitStatusHelp.text(output: "the output file (--to) cannot be created")

    @Argument(
        help: ArgumentHelp("Data files to read ('-' for stdin). None: read the storage account.", valueName: "file")
    )
    var files: [String] = []

    @Option(
        name: .customLong("from-format"),
        help: ArgumentHelp("Format of the input files: \(Self.formatNames).", valueName: "format")
    )
    var fromFormat: DataFormat?

    @OptionGroup var storeOption: StoreOption

    @Option(
        help: ArgumentHelp("The table to read from the account. (default: \(DataContract.table))", valueName: "name")
    )
    var table: String?

    @Option(
        help: ArgumentHelp("Only this partition of the table: Events or speakers. (default: both)", valueName: "key")
    )
    var partition: String?

    @Option(help: ArgumentHelp("The output file. (default: stdout)", valueName: "file"))
    var to: String?

    @Option(
        help: ArgumentHelp(
            "Output format: \(Self.formatNames). (default: from --to's extension, else json)",
            valueName: "format"
        )
    )
    var format: DataFormat?

    @Option(
        help: ArgumentHelp(
            "JSON and NDJSON metadata: none (types lost), minimal (lossless) or full. (default: minimal)",
            valueName: "level"
        )
    )
    var metadata: MetadataArgument?

    @Flag(help: "CSV with a Prop@type column after each property (Azure Storage Explorer's layout): lossless.")
    var typed = false

    @Flag(
        help:
            "CSV for people to open in a spreadsheet: their columns first, dates in UTC as spreadsheets read them, a BOM. Not read back."
    )
    var spreadsheet = false

    @Flag(
        help:
            "Start CSV with a UTF-8 byte order mark, so that Excel reads non-ASCII text right (always with --spreadsheet)."
    )
    var bom = false

    @Option(help: DelimiterArgument.help, transform: DelimiterArgument.init(parsing:))
    var delimiter: DelimiterArgument?

    @Option(help: TextEncoding.help)
    var encoding: TextEncoding?

    @Option(
        help: ArgumentHelp(
            "Comma-separated properties to write, in this order (also PartitionKey, RowKey, Timestamp for CSV).",
            valueName: "names"
        )
    )
    var columns: String?

    @Option(
        help: ArgumentHelp(
            "Order by this property (e.g. EventDate); holds every entity in memory.",
            valueName: "property"
        )
    )
    var sort: String?

    @OptionGroup var output: OutputOptions

    /// --format, else what --to's extension names, else JSON.
    var outputFormat: DataFormat { format ?? to.flatMap { DataFormat(fileExtensionOf: $0) } ?? .json }

    /// Whether any input may be CSV (--delimiter then applies to reading it).
    var readsCSV: Bool { DelimiterArgument.mayReadCSV(files, fromFormat: fromFormat) }

    static var formatNames: String { DataFormat.allCases.map(\.rawValue).joined(separator: ", ") }

    func validate() throws {
        if let partition, partition.isEmpty { throw ValidationError("--partition must not be empty") }
        if !files.isEmpty, partition != nil {
            throw ValidationError("--partition reads from the storage account; it does not apply to files")
        }
        if !files.isEmpty, table != nil {
            throw ValidationError("--table reads from the storage account; it does not apply to files")
        }
        if files.isEmpty, encoding != nil {
            throw ValidationError("--encoding reads files; it does not apply to the storage account")
        }
        try storeOption.refuse(besides: files)
        if let columns,
            columns.split(separator: ",", omittingEmptySubsequences: false).contains(where: {
                $0.trimmingSpaces.isEmpty
            })
        {
            throw ValidationError("--columns has an empty name: '\(columns)'")
        }
        if typed, spreadsheet { throw ValidationError("--typed and --spreadsheet are two CSV layouts; choose one") }
        try OutputClash.refuse(
            output: to,
            option: "--to",
            uses: OutputClash.Use.sources(files: files, store: storeOption.location)
        )
        // After the clash: writing over the store is the graver mistake, whatever its name says.
        if format == nil, let to, to != "-", let ext = DataFormat.fileExtension(of: to),
            DataFormat(fileExtensionOf: to) == nil
        {
            throw ValidationError(
                "--to \(to): export writes no format by the extension '.\(ext)'; it knows \(DataFormat.knownExtensions) (or give --format)"
            )
        }
        try FormatOption.check(self)
    }

    func run() async throws {
        // Data on stdout: no progress when stdout is the very terminal stderr is.
        let progressBar = ProgressBar(
            enabled: !output.quiet && Terminal.progressAllowed(dataOnStdout: to == nil || to == "-")
        )
        do {
            let target = to ?? "-"
            var options = EntityFiles.WriteOptions(format: outputFormat)
            options.metadata = (metadata ?? .minimal).level
            options.typedCSV = typed
            options.spreadsheetCSV = spreadsheet
            options.byteOrderMark = bom
            options.table = table ?? DataContract.table
            if files.isEmpty {
                // The feed names where its entities live: the table endpoint of the account read.
                options.tableEndpoint = storeOption.location.tableEndpoint
                options.account = storeOption.location.accountName
            }
            if let delimiter {
                options.delimiter = delimiter.byte
            } else if let to, to != "-", DataFormat.isTabSeparated(to) {
                options.delimiter = UInt8(ascii: "\t")
            }
            options.columns = columns.map { $0.split(separator: ",").map { String($0.trimmingSpaces) } }
            var exporter = Exporter(writeOptions: options)
            exporter.readOptions = EntityFiles.ReadOptions(
                format: fromFormat,
                delimiter: delimiter?.byte,
                encoding: encoding
            )
            exporter.sortBy = sort
            exporter.storeParallel = storeOption.readParallel

            let sources: [Exporter.Source]
            if files.isEmpty {
                let store = try storeOption.openForReading()
                sources = [.store(store, table: table ?? DataContract.table, partition: partition)]
            } else {
                sources = files.map { .file($0) }
            }
            let outputFile = try OutputFile(path: target)
            let count = try await exporter.run(sources, to: outputFile) { progress in
                // Files: bytes read of their total size (stdin: of an unknown one); a store: entities.
                if progress.bytesRead > 0 || progress.bytesTotal > 0 {
                    progressBar.update(
                        ProgressLine(
                            "export",
                            done: progress.bytesRead,
                            total: progress.bytesTotal,
                            unit: .bytes,
                            entities: progress.entities
                        )
                    )
                } else {
                    progressBar.update(ProgressLine("export", done: Int64(progress.entities), unit: .count("entities")))
                }
            }
            progressBar.finish()
            if !output.quiet, to != nil {
                Terminal.writeError("export: wrote \(count) entities to \(target) (\(options.format.rawValue))\n")
            }
        } catch {
            progressBar.finish()
            throw ToolExit.report(error, tool: "export")
        }
    }
}

/// `--metadata none|minimal|full`.
enum MetadataArgument: String, ExpressibleByArgument, CaseIterable {
    case none, minimal, full

    var level: JSONMetadata {
        switch self {
        case .none: .none
        case .minimal: .minimal
        case .full: .full
        }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
