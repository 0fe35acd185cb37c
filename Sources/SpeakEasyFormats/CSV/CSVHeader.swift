import SpeakEasyModel

/// The two CSV layouts the toolkit reads and writes.
package enum CSVLayout: Sendable {
    /// A header of property names, every value a string except the data contract's known types
    /// (`EventDate` is a DateTime). An empty cell is an absent property, a quoted empty cell (`""`)
    /// an empty string.
    case plain
    /// Azure Storage Explorer's layout: each property column followed by a `Name@type` column naming
    /// its Edm type (`Edm.Int64` or `Int64`). Lossless.
    case typed
}

/// What each column of a CSV header holds, worked out once from the header row.
struct CSVHeader {
    /// A property's value column, and in the typed layout its type column.
    struct PropertyColumn {
        var name: String
        var valueColumn: Int
        /// The `Name@type` column (typed layout).
        var typeColumn: Int?
        /// The type of every value in a plain column; in a typed column, the type given by the first
        /// non-empty type cell so far, which later empty type cells inherit (Storage Explorer 1.40
        /// writes the type only on the first row).
        var type: EdmType?
    }

    static let partitionKey = "PartitionKey"
    static let rowKey = "RowKey"
    static let timestamp = "Timestamp"
    static let typeSuffix = "@type"

    var layout: CSVLayout
    var fieldCount: Int
    var partitionKeyColumn: Int
    var rowKeyColumn: Int
    var timestampColumn: Int?
    var properties: [PropertyColumn]
    /// Every cell of the header is quoted: the file comes from a writer that quotes every cell
    /// (Python's `csv.QUOTE_ALL`, `QUOTE_NONNUMERIC`), where a quoted empty cell is what it writes
    /// for nothing at all, so in the plain layout it is an absent property, not an empty string.
    /// (The formatter quotes a cell only where it must, which a name never needs but with a letter for
    /// a delimiter.)
    var quotesEveryCell: Bool

    /// Reads the header from the scanner's current record. The layout is typed when any column is a
    /// `@type` column; then every property column must be followed by its own.
    init(_ scanner: CSVRecordScanner) throws(FormatError) {
        let fields = scanner.fields
        var names: [String] = []
        names.reserveCapacity(fields.count)
        var firstColumn: [String: Int] = [:]
        for (index, field) in fields.enumerated() {
            let name = try scanner.string(field)
            if let first = firstColumn[name] {
                throw scanner.error(
                    "the column '\(name)' appears twice in the header (first as column \(first + 1))",
                    line: field.line,
                    column: field.column
                )
            }
            firstColumn[name] = index
            names.append(name)
        }
        func missing(_ name: String) -> FormatError {
            if let hint = EncodingHint.nulInHeader(names) {
                var error = scanner.error(hint.reason, line: scanner.recordLine, column: scanner.recordColumn)
                error.toolAdvice = hint.advice
                return error
            }
            guard let likely = Self.likelyDelimiter(of: names, given: scanner.delimiter) else {
                return scanner.error(
                    "the header has no \(name) column; a CSV of entities needs PartitionKey and RowKey",
                    line: scanner.recordLine,
                    column: scanner.recordColumn
                )
            }
            var error = scanner.error(
                "the header looks \(likely.described)-separated",
                line: scanner.recordLine,
                column: scanner.recordColumn
            )
            error.toolAdvice = ": use --delimiter \(likely.argument)"
            return error
        }
        guard let partitionKey = firstColumn[Self.partitionKey] else { throw missing(Self.partitionKey) }
        guard let rowKey = firstColumn[Self.rowKey] else { throw missing(Self.rowKey) }
        layout = names.contains { $0.hasSuffix(Self.typeSuffix) } ? .typed : .plain
        fieldCount = fields.count
        partitionKeyColumn = partitionKey
        rowKeyColumn = rowKey
        timestampColumn = firstColumn[Self.timestamp]
        quotesEveryCell = fields.allSatisfy(\.isQuoted)
        properties = []

        var index = 0
        while index < names.count {
            let name = names[index]
            defer { index += 1 }
            if name == Self.partitionKey || name == Self.rowKey || name == Self.timestamp { continue }
            if name.isEmpty {
                throw scanner.error(
                    "a header cell is empty; every column needs a name",
                    line: fields[index].line,
                    column: fields[index].column
                )
            }
            if name.hasSuffix(CSVFormatter.utcSuffix) {
                // Taken as a string column, its dates would come back as text under another name.
                var error = scanner.error(
                    "the column '\(name)' is from export's spreadsheet layout, which is for people and cannot be read back "
                        + "(its dates are not Edm.DateTime)",
                    line: fields[index].line,
                    column: fields[index].column
                )
                error.toolAdvice = "; export with the default layout or --typed for a CSV to read again"
                throw error
            }
            if name.hasSuffix(Self.typeSuffix) {
                let base = String(name.dropLast(Self.typeSuffix.count))
                let reason =
                    [Self.partitionKey, Self.rowKey, Self.timestamp].contains(base)
                    ? "\(base) is a system column and has no type column"
                    : "the type column '\(name)' must follow the column '\(base)'"
                throw scanner.error(
                    reason,
                    line: fields[index].line,
                    column: fields[index].column
                )
            }
            switch layout {
            case .plain:
                properties.append(
                    PropertyColumn(
                        name: name,
                        valueColumn: index,
                        type: DataContract.nonStringProperties[name] ?? .string
                    )
                )
            case .typed:
                guard index + 1 < names.count, names[index + 1] == name + Self.typeSuffix else {
                    throw scanner.error(
                        "the column '\(name)' has no '\(name)@type' column after it (in typed CSV every property column is followed by its type column)",
                        line: fields[index].line,
                        column: fields[index].column
                    )
                }
                properties.append(PropertyColumn(name: name, valueColumn: index, typeColumn: index + 1))
                index += 1
            }
        }
    }

    /// Another delimiter that splits a header which names neither key into one that names both: a
    /// European Excel writes `;` (where `,` is the decimal comma), other tools a tab. The given
    /// delimiter's cells are joined again, so the guess sees the line as it was written.
    static func likelyDelimiter(of names: [String], given: UInt8) -> (described: String, argument: String)? {
        let line = names.joined(separator: String(UnicodeScalar(given)))
        for candidate in [UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: ",")] where candidate != given {
            let cells = Set(
                line.utf8.split(separator: candidate, omittingEmptySubsequences: false).map {
                    String(decoding: $0, as: UTF8.self)
                }
            )
            guard cells.contains(partitionKey), cells.contains(rowKey) else { continue }
            return candidate == UInt8(ascii: "\t")
                ? ("tab", "tab") : ("'\(UnicodeScalar(candidate))'", "'\(UnicodeScalar(candidate))'")
        }
        return nil
    }

    /// The Edm type a type cell names, in either spelling (`Edm.Int64`, `Int64`), or nil.
    static func type(named bytes: UnsafeBufferPointer<UInt8>) -> EdmType? {
        var name = bytes[...]
        if name.starts(with: edmPrefix) { name = name.dropFirst(edmPrefix.count) }
        for (shortName, type) in shortNames where name.elementsEqual(shortName) { return type }
        return nil
    }

    private static let edmPrefix = Array("Edm.".utf8)
    private static let shortNames = EdmType.allCases.map { (Array($0.shortName.utf8), $0) }
}
