package import SpeakEasyCore
package import SpeakEasyModel

/// Opens data files as entity streams and makes formatters, so every tool reads and writes the same
/// formats the same way.
package enum EntityFiles {
    /// How to read a file whose format is given, implied by its extension, or sniffed.
    package struct ReadOptions: Sendable {
        /// The format, when the caller knows it (`--from-format`).
        package var format: DataFormat?
        /// CSV field separator; nil for the file's own: a tab for a `.tsv` file and for UTF-16 text
        /// (Excel's "Unicode Text" is tab-separated), else a comma.
        package var delimiter: UInt8?
        /// The text encoding; nil for UTF-8, or UTF-16 when the file starts with its byte order mark.
        /// Atom names its own encoding, as XML does, and is read by it.
        package var encoding: TextEncoding?
        /// Hand events of the contract's plain shape over as ``PlainEvent``s where the reader can
        /// tell them without building the entity (JSON, NDJSON and CSV), for `validate`.
        package var plainEvents = false
        /// In plain CSV, where only the contract makes `EventDate` a DateTime, keep a value that is no
        /// date as a string instead of refusing the file: `validate` reports it (`dates.missing`)
        /// and goes on.
        package var keepsUnreadableDates = false

        package init(format: DataFormat? = nil, delimiter: UInt8? = nil, encoding: TextEncoding? = nil) {
            self.format = format
            self.delimiter = delimiter
            self.encoding = encoding
        }

        /// The separator CSV is read with: the one given or resolved for the file, else a comma.
        package var csvDelimiter: UInt8 { delimiter ?? UInt8(ascii: ",") }
    }

    /// An open input: the reader, the format it reads, and the bytes behind it (for progress).
    package struct Opened {
        package var reader: any EntityReader
        package var format: DataFormat
        package var input: ByteInput
    }

    /// Opens `path` (`-` is stdin): the format from `options`, else the extension, else the first bytes.
    package static func open(_ path: String, options: ReadOptions = ReadOptions()) throws(FormatError) -> Opened {
        let (input, format, options) = try openInput(path, options: options)
        return Opened(reader: try reader(for: input, format: format, options: options), format: format, input: input)
    }

    /// Opens `path` and tells its format, without reading more than a sniffed prefix (which later reads
    /// return again). The input hands out UTF-8, decoded from the file's encoding; the options come
    /// back resolved for the file: its encoding, and its CSV delimiter.
    package static func openInput(
        _ path: String,
        options: ReadOptions = ReadOptions()
    ) throws(FormatError) -> (ByteInput, DataFormat, ReadOptions) {
        var input: ByteInput
        do { input = try ByteInput(path: path) } catch { throw FormatError(error) }
        var resolved = options
        var format = options.format ?? (path == "-" ? nil : DataFormat(fileExtensionOf: path))
        let prefix: [UInt8]
        do { prefix = try input.peek(count: format == nil ? 4096 : 2) } catch { throw FormatError(error) }
        let encoding = options.encoding ?? TextEncoding(byteOrderMarkOf: prefix) ?? .utf8
        if format == nil { format = DataFormat(sniffing: TextDecoder.prefix(of: prefix, in: encoding)) }
        if format == .atom {
            // XML tells its encoding (a byte order mark, `<?xml … encoding=…?>`), and libxml2 reads it.
            if let given = options.encoding, given != .utf8 {
                throw FormatError(
                    source: input.name,
                    reason:
                        "--encoding \(given.rawValue) does not apply to Atom, which names its own encoding as XML does",
                    kind: .usage
                )
            }
        } else {
            resolved.encoding = encoding
            if encoding != .utf8 { input = ByteInput(decoding: input, from: encoding) }
        }
        if resolved.delimiter == nil, (path != "-" && DataFormat.isTabSeparated(path)) || resolved.encoding == .utf16 {
            resolved.delimiter = UInt8(ascii: "\t")
        }
        return (input, format ?? .json, resolved)
    }

    /// What cuts a file of `format` into pieces that parse on their own (``InputSplitter``), so that
    /// threads can share its parsing.
    package static func splitter(
        for input: ByteInput,
        format: DataFormat,
        pieceSize: Int,
        options: ReadOptions = ReadOptions()
    ) -> any InputSplitter {
        switch format {
        // Three quarters of the size: a piece's SAX2 parse (AtomPieceReader) holds the piece, libxml2's
        // copy of it and all its entries at once, and at 1 MiB the long-text benchmark peaked at 65 MB
        // (58 MB at 3/4; 1/2 took 10% more CPU).
        case .atom: AtomFeedSplitter(input: input, pieceSize: pieceSize * 3 / 4)
        case .ndjson: JSONLinesSplitter(input: input, pieceSize: pieceSize)
        case .csv: CSVSplitter(input: input, delimiter: options.csvDelimiter, pieceSize: pieceSize)
        case .json: JSONDocumentSplitter(input: input, pieceSize: pieceSize)
        }
    }

    /// A reader of one piece a ``splitter(for:format:pieceSize:options:)`` cut.
    package static func reader(
        for piece: InputPiece,
        format: DataFormat,
        options: ReadOptions = ReadOptions()
    ) throws(FormatError) -> any EntityReader {
        switch format {
        case .atom:
            if let bytes = piece.input.takeBytesInMemory() {
                AtomPieceReader(bytes: bytes, source: piece.input.name, origin: piece.origin)
            } else {
                AtomEntityReader(input: piece.input, origin: piece.origin)
            }
        case .ndjson:
            // An in-memory piece is taken whole: its reader never looks for an object's end past it.
            JSONEntityStreamReader(
                input: piece.input,
                layout: .lines,
                origin: piece.origin,
                plainEvents: options.plainEvents
            )
        case .csv:
            try CSVEntityReader(
                piece.input,
                delimiter: options.csvDelimiter,
                plainEvents: options.plainEvents,
                keepsUnreadableDates: options.keepsUnreadableDates,
                origin: piece.origin
            )
        case .json:
            JSONEntityStreamReader(
                input: piece.input,
                layout: .document,
                origin: piece.origin,
                addedBytes: piece.addedBytes,
                plainEvents: options.plainEvents
            )
        }
    }

    /// A reader of `format` over `input`.
    package static func reader(
        for input: ByteInput,
        format: DataFormat,
        options: ReadOptions = ReadOptions()
    ) throws(FormatError) -> any EntityReader {
        switch format {
        case .atom: AtomEntityReader(input: input)
        case .json: JSONEntityStreamReader(input: input, layout: .document, plainEvents: options.plainEvents)
        case .ndjson: JSONEntityStreamReader(input: input, layout: .lines, plainEvents: options.plainEvents)
        case .csv:
            try CSVEntityReader(
                input,
                delimiter: options.csvDelimiter,
                plainEvents: options.plainEvents,
                keepsUnreadableDates: options.keepsUnreadableDates
            )
        }
    }

    /// How to write: the format and its options.
    package struct WriteOptions: Sendable {
        package var format: DataFormat
        package var metadata: JSONMetadata = .minimal
        package var typedCSV = false
        /// CSV in the layout for people (``CSVFormatter/Options/spreadsheet``).
        package var spreadsheetCSV = false
        /// CSV that starts with a UTF-8 byte order mark.
        package var byteOrderMark = false
        package var delimiter: UInt8 = UInt8(ascii: ",")
        /// Properties to write, in order (CSV columns); nil for all.
        package var columns: [String]?
        /// The table the entities come from, for the feed's links.
        package var table: String = DataContract.table
        /// The table endpoint of the account the entities come from, ending in `/`: Atom's `xml:base`
        /// and JSON's `odata.metadata` name it. Files name no account: the local one's is the default.
        package var tableEndpoint = LocalAccount.tableEndpoint
        /// The name of the account the entities come from, for Atom's category and JSON's `odata.type`.
        package var account = LocalAccount.name

        package init(format: DataFormat) { self.format = format }
    }

    package static func formatter(_ options: WriteOptions) throws(FormatError) -> any EntityFormatter {
        switch options.format {
        case .atom:
            AtomFormatter(
                options: AtomFormatter.Options(
                    table: options.table,
                    account: options.account,
                    baseURL: options.tableEndpoint
                )
            )
        case .json, .ndjson:
            JSONFormatter(
                metadata: options.metadata,
                layout: options.format == .json ? .feed : .lines,
                table: options.table,
                serviceURL: options.tableEndpoint,
                accountName: options.account
            )
        case .csv:
            try CSVFormatter(
                CSVFormatter.Options(
                    typed: options.typedCSV,
                    delimiter: options.delimiter,
                    columns: options.columns,
                    spreadsheet: options.spreadsheetCSV,
                    byteOrderMark: options.byteOrderMark
                )
            )
        }
    }

    /// `entities` in one format, in memory (for small sets and tests), a CSV header that grew completed.
    package static func bytes(of entities: [Entity], options: WriteOptions) throws(FormatError) -> [UInt8] {
        var formatter = try formatter(options)
        var out: [UInt8] = []
        formatter.begin(into: &out)
        for entity in entities { try formatter.append(entity, into: &out) }
        formatter.end(into: &out)
        guard let csv = formatter as? CSVFormatter, csv.headerIsIncomplete else { return out }
        var complete: [UInt8] = []
        try csv.rewriteWithFinalHeader(
            ByteInput(name: "CSV", bytes: out),
            into: { (buffer: inout [UInt8]) throws(FormatError) in
                complete.append(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        )
        return complete
    }
}
