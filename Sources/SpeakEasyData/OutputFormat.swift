public import SpeakEasyFormats

/// How ``EntityFile`` and ``Store/export(table:partition:to:as:)`` write entities: a format and the
/// choices it offers.
///
/// ```swift
/// try await store.export(table: "events", to: "events.csv", as: .spreadsheet)
/// try await EntityFile.write(entities, to: "events.json", as: .json)
/// ```
public struct OutputFormat: Sendable, Hashable {
    /// The format written.
    public var format: DataFormat
    /// CSV with each column's type in a second header row (`Edm.DateTime`, …), Azure Storage
    /// Explorer's layout, so that nothing is lost. Only for ``DataFormat/csv``.
    public var typed: Bool
    /// CSV in the layout for people: one column per property, dates as a spreadsheet reads them, and
    /// a byte order mark so that Excel reads UTF-8. Only for ``DataFormat/csv``.
    public var spreadsheet: Bool
    /// The properties to write, in this order (CSV's columns); nil for every property. The keys are
    /// always written.
    public var columns: [String]?

    /// A format with its defaults, or with the choices given.
    public init(_ format: DataFormat, typed: Bool = false, spreadsheet: Bool = false, columns: [String]? = nil) {
        self.format = format
        self.typed = typed
        self.spreadsheet = spreadsheet
        self.columns = columns
    }

    /// Azure's JSON (minimal metadata), as one document: `{"value":[…]}`.
    public static let json = OutputFormat(.json)
    /// Azure's JSON, one entity a line.
    public static let ndjson = OutputFormat(.ndjson)
    /// Azure's Atom feed, as the app and the 2013 SDKs read it.
    public static let atom = OutputFormat(.atom)
    /// CSV with the values as text and no types: an empty string is `""`, an absent property an
    /// empty cell.
    public static let csv = OutputFormat(.csv)
    /// CSV that keeps the types (``typed``).
    public static let typedCSV = OutputFormat(.csv, typed: true)
    /// CSV for people to open in a spreadsheet (``spreadsheet``).
    public static let spreadsheet = OutputFormat(.csv, spreadsheet: true)

    /// The options ``EntityFiles`` writes with.
    var writeOptions: EntityFiles.WriteOptions {
        var options = EntityFiles.WriteOptions(format: format)
        options.typedCSV = typed
        options.spreadsheetCSV = spreadsheet
        options.byteOrderMark = spreadsheet
        options.columns = columns
        return options
    }
}
