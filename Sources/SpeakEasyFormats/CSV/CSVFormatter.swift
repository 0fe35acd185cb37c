import SpeakEasyCore
package import SpeakEasyModel

/// Writes entities as RFC 4180 CSV in either layout (``CSVLayout``), or in the spreadsheet layout for
/// people (``Options/spreadsheet``, see CSVFormatter+Spreadsheet), with CRLF line ends.
///
/// Columns: `PartitionKey`, `RowKey`, then `Timestamp` — always in the typed layout (empty when an
/// entity has none, as Storage Explorer writes it); in the plain layout only when the first entity
/// has a timestamp or `columns` lists it — then the properties. In the typed layout each property is
/// followed by `Name@type`, holding the full `Edm.X` spelling when the entity has the property and
/// left empty when it does not, so that an empty value cell with a filled type cell means an empty
/// string (see ``CSVEntityReader``).
///
/// With `columns`, exactly those properties are written, in that order (other properties are
/// dropped); `PartitionKey`, `RowKey` and `Timestamp` may be listed to place them, and the keys are
/// added in front when they are not. Without `columns`, the properties of the first entity make the
/// header; a later entity with a property not seen yet (or, in the plain layout, the first timestamp)
/// gets a new column at the end, its row is longer than the header, and ``headerIsIncomplete`` turns
/// true: the finished output must then be passed through ``rewriteWithFinalHeader(_:into:)``, which
/// writes the final header and pads short rows. Entities are never held back, so memory stays flat.
///
/// A field is quoted only when it holds the delimiter, a quote, CR or LF; quotes inside are doubled.
/// Values are written in their lexical form (``EdmValue/description``; DateTime with 7 digits). In the
/// plain and spreadsheet layouts an empty string is written `""`, so that it differs from an absent
/// property's empty cell (the typed layout tells them apart by the type cell).
package struct CSVFormatter: EntityFormatter {
    package struct Options: Sendable {
        package var typed: Bool
        package var delimiter: UInt8
        package var columns: [String]?
        /// The layout for people (CSVFormatter+Spreadsheet); not with `typed`.
        package var spreadsheet: Bool
        /// Start with a UTF-8 byte order mark (always in the spreadsheet layout).
        package var byteOrderMark: Bool

        package init(
            typed: Bool = false,
            delimiter: UInt8 = UInt8(ascii: ","),
            columns: [String]? = nil,
            spreadsheet: Bool = false,
            byteOrderMark: Bool = false
        ) {
            self.typed = typed
            self.delimiter = delimiter
            self.columns = columns
            self.spreadsheet = spreadsheet
            self.byteOrderMark = byteOrderMark || spreadsheet
        }
    }

    private enum Column: Equatable {
        case partitionKey, rowKey, timestamp
        case property(String)
    }

    package let options: Options
    /// True when rows were written with more fields than the header already written: see
    /// ``rewriteWithFinalHeader(_:into:)``.
    package private(set) var headerIsIncomplete = false
    private var columns: [Column] = []
    /// Index in `columns` of each property column.
    private var columnOfProperty: [String: Int] = [:]
    private var headerWritten = false
    /// For the entity being written: the index in its properties of each column's value, or -1.
    private var cells: [Int] = []
    /// The property names of the previous entity and their columns: entities of one source usually
    /// list the same properties in the same order, which then costs no dictionary look-ups.
    private var lastNames: [String] = []
    private var lastColumns: [Int] = []
    /// Whether a DateTime's lexical form can never contain the delimiter, so it needs no check.
    private let datesNeedNoQuoting: Bool
    /// How many columns stay at the end when others are added: the keys, in the spreadsheet layout.
    private var trailingColumns = 0
    /// Property columns whose header says they hold UTC dates (spreadsheet layout).
    private var dateColumns: Set<String> = []
    /// Whether no Edm type name contains the delimiter, so type cells need no check.
    private let typesNeedNoQuoting: Bool

    /// Fails (usage) for a delimiter that cannot separate fields, or `columns` naming one twice.
    package init(_ options: Options = Options()) throws(FormatError) {
        try Self.checkDelimiter(options.delimiter)
        if options.typed, options.spreadsheet {
            throw FormatError(
                source: "CSV layout",
                reason: "the typed and the spreadsheet layout exclude each other",
                kind: .usage
            )
        }
        if let columns = options.columns {
            var seen = Set<String>()
            for name in columns {
                guard seen.insert(name).inserted else {
                    throw FormatError(
                        source: "CSV columns",
                        reason: "the column '\(name)' is listed twice",
                        kind: .usage
                    )
                }
                if ![CSVHeader.partitionKey, CSVHeader.rowKey, CSVHeader.timestamp].contains(name) {
                    try Self.checkPropertyName(name, kind: .usage)
                }
            }
        }
        self.options = options
        datesNeedNoQuoting = !Array("0123456789-:.TZ ".utf8).contains(options.delimiter)
        typesNeedNoQuoting = !EdmType.allCases.contains { $0.rawValue.utf8.contains(options.delimiter) }
    }

    /// A delimiter must be one ASCII byte, and not `"`, CR or LF, which CSV itself uses.
    static func checkDelimiter(_ delimiter: UInt8) throws(FormatError) {
        guard delimiter < 0x80, delimiter != UInt8(ascii: "\""), delimiter != 0x0A, delimiter != 0x0D else {
            throw FormatError(
                source: "CSV delimiter",
                reason: "the delimiter must be one ASCII character other than a quote, CR or LF",
                kind: .usage
            )
        }
    }

    /// The header is written with the first entity, once its columns are known.
    package mutating func begin(into out: inout [UInt8]) {}

    package mutating func append(_ entity: Entity, into out: inout [UInt8]) throws(FormatError) {
        if headerWritten {
            try assignCells(entity)
        } else {
            establishColumns(from: entity)
            try assignCells(entity)
            appendHeader(into: &out)
            headerWritten = true
        }
        let delimiter = options.delimiter
        for (index, column) in columns.enumerated() {
            if index > 0 { out.append(delimiter) }
            switch column {
            case .partitionKey: appendField(entity.partitionKey, into: &out)
            case .rowKey: appendField(entity.rowKey, into: &out)
            case .timestamp: if let timestamp = entity.timestamp { appendDate(timestamp, into: &out) }
            case .property:
                let cell = cells[index]
                let value = cell >= 0 ? entity.properties[cell].value : nil
                if let value { appendValue(value, into: &out) }
                if options.typed {
                    out.append(delimiter)
                    if let value { appendType(value.type, into: &out) }
                }
            }
        }
        out.append(0x0D)
        out.append(0x0A)
    }

    /// Writes the header when no entity came.
    package mutating func end(into out: inout [UInt8]) {
        guard !headerWritten else { return }
        establishColumns(from: nil)
        appendHeader(into: &out)
        headerWritten = true
    }

    /// The header line for the columns as they stand (after the last entity: the final header).
    package func appendHeader(into out: inout [UInt8]) {
        if options.byteOrderMark { out.append(contentsOf: Self.byteOrderMark) }
        for (index, column) in columns.enumerated() {
            if index > 0 { out.append(options.delimiter) }
            switch column {
            case .partitionKey: appendField(CSVHeader.partitionKey, into: &out)
            case .rowKey: appendField(CSVHeader.rowKey, into: &out)
            case .timestamp: appendField(CSVHeader.timestamp + (options.spreadsheet ? Self.utcSuffix : ""), into: &out)
            case .property(let name):
                appendField(dateColumns.contains(name) ? name + Self.utcSuffix : name, into: &out)
                if options.typed {
                    out.append(options.delimiter)
                    appendField(name + CSVHeader.typeSuffix, into: &out)
                }
            }
        }
        out.append(0x0D)
        out.append(0x0A)
    }

    /// How many fields the header (and every complete row) has.
    package var fieldCount: Int {
        columns.reduce(0) { count, column in
            if case .property = column, options.typed { return count + 2 }
            return count + 1
        }
    }

    // MARK: - Columns

    private mutating func establishColumns(from first: Entity?) {
        if let listed = options.columns {
            for name in listed {
                switch name {
                case CSVHeader.partitionKey: columns.append(.partitionKey)
                case CSVHeader.rowKey: columns.append(.rowKey)
                case CSVHeader.timestamp: columns.append(.timestamp)
                default: columns.append(.property(name))
                }
            }
            // A person's sheet has exactly the columns asked for; a file to read back needs the keys.
            if !options.spreadsheet, !columns.contains(.partitionKey) { columns.insert(.partitionKey, at: 0) }
            if !options.spreadsheet, !columns.contains(.rowKey) {
                columns.insert(.rowKey, at: columns.firstIndex(of: .partitionKey)! + 1)
            }
            if options.typed, !columns.contains(.timestamp) {
                columns.insert(.timestamp, at: columns.firstIndex(of: .rowKey)! + 1)
            }
        } else if options.spreadsheet {
            // The first entity's properties as a person reads them, then the keys, which stay last.
            let names = Self.inPeopleOrder(first?.properties.map(\.name) ?? [])
            columns = names.map(Column.property) + [.partitionKey, .rowKey]
            trailingColumns = 2
        } else {
            columns = [.partitionKey, .rowKey]
            if options.typed || first?.timestamp != nil { columns.append(.timestamp) }
        }
        for (index, column) in columns.enumerated() {
            if case .property(let name) = column {
                columnOfProperty[name] = index
                noteDateColumn(name, in: first)
            }
        }
    }

    /// In the spreadsheet layout, a column is headed as UTC dates when the contract types it a
    /// DateTime or the entity it was made for holds a DateTime there.
    private mutating func noteDateColumn(_ name: String, in entity: Entity?) {
        guard options.spreadsheet else { return }
        let type = entity?.properties.first { $0.name == name }?.value.type ?? DataContract.nonStringProperties[name]
        if type == .dateTime { dateColumns.insert(name) }
    }

    /// Fills `cells` for `entity`, adding columns for new properties unless the columns were given.
    private mutating func assignCells(_ entity: Entity) throws(FormatError) {
        let properties = entity.properties
        if properties.count != lastNames.count || !zip(properties, lastNames).allSatisfy({ $0.name == $1 }) {
            lastNames = properties.map(\.name)
            lastColumns = []
            for property in properties {
                if let column = columnOfProperty[property.name] {
                    lastColumns.append(column)
                } else if options.columns == nil {
                    do {
                        try Self.checkPropertyName(property.name, kind: .malformedInput)
                    } catch {
                        var located = error
                        located.keys = (entity.partitionKey, entity.rowKey)
                        throw located
                    }
                    let column = addColumn(.property(property.name))
                    noteDateColumn(property.name, in: entity)
                    lastColumns.append(column)
                } else {
                    lastColumns.append(-1)
                }
            }
        }
        if entity.timestamp != nil, options.columns == nil, !options.spreadsheet, !columns.contains(.timestamp) {
            _ = addColumn(.timestamp)
        }
        if cells.count != columns.count {
            // Columns were added (checked then, not for every entity): a record of more fields than the
            // reader takes would not read back (found while fuzzing: an entity of 600 properties, which
            // JSON and Atom read, written as typed CSV).
            let fields = columns.count + (options.typed ? columnOfProperty.count : 0)
            if fields > CSVRecordScanner.maximumFields {
                var error = FormatError(
                    source: "CSV",
                    reason:
                        "the entities need \(fields) columns, more than the \(CSVRecordScanner.maximumFields) a CSV record may have here (an Azure entity has at most 255 properties)",
                    kind: .malformedInput
                )
                error.keys = (entity.partitionKey, entity.rowKey)
                throw error
            }
            cells = Array(repeating: -1, count: columns.count)
        }
        for index in cells.indices { cells[index] = -1 }
        for (index, column) in lastColumns.enumerated() where column >= 0 { cells[column] = index }
    }

    /// Adds a column before the trailing ones (only keys, which no entity's properties index).
    private mutating func addColumn(_ column: Column) -> Int {
        let index = columns.count - trailingColumns
        columns.insert(column, at: index)
        if case .property(let name) = column { columnOfProperty[name] = index }
        if headerWritten { headerIsIncomplete = true }
        return index
    }

    /// How many columns at the end of every row stay there when columns are added: a row written
    /// before the header was complete lacks the fields just before them
    /// (``rewriteWithFinalHeader(_:into:)``).
    package var fixedTrailingColumns: Int { trailingColumns }

    /// Names a reader would take for something else cannot be property columns.
    private static func checkPropertyName(_ name: String, kind: FailureKind) throws(FormatError) {
        if name.isEmpty {
            // The reader needs every column named (found by Fuzz/run ndjson: JSON allows a property "").
            throw FormatError(
                source: "CSV",
                reason: "a property has an empty name, and every CSV column needs one",
                kind: kind
            )
        }
        if name.hasSuffix(CSVHeader.typeSuffix) {
            throw FormatError(
                source: "CSV",
                reason: "the property name '\(name)' ends in @type, which CSV reserves for type columns",
                kind: kind
            )
        }
        if name.hasSuffix(utcSuffix) {
            // The reader refuses such a column as the spreadsheet layout's, which cannot be read back
            // (found by Fuzz/run ndjson: a JSON property 'Name (UTC)' written to CSV did not read back).
            throw FormatError(
                source: "CSV",
                reason:
                    "the property name '\(name)' ends in ' (UTC)', which marks the spreadsheet layout's date columns",
                kind: kind
            )
        }
        if name == CSVHeader.partitionKey || name == CSVHeader.rowKey || name == CSVHeader.timestamp {
            throw FormatError(
                source: "CSV",
                reason: "a property cannot be named \(name): CSV has a column of that name for the entity itself",
                kind: kind
            )
        }
    }

    // MARK: - Fields

    private func appendValue(_ value: EdmValue, into out: inout [UInt8]) {
        switch value {
        // Plain CSV has no type cell to say that an empty cell is an empty string: its quotes say it.
        case .string("") where !options.typed: out.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "\"")])
        case .string(let text): appendField(text, into: &out)
        case .dateTime(let date): appendDate(date, into: &out)
        default: appendField(value.description, into: &out)
        }
    }

    /// A type cell: quoted when the delimiter is one of the type names' characters (`--delimiter a`).
    private func appendType(_ type: EdmType, into out: inout [UInt8]) {
        if typesNeedNoQuoting {
            out.append(contentsOf: type.rawValue.utf8)
        } else {
            appendField(type.rawValue, into: &out)
        }
    }

    private func appendDate(_ date: EdmDateTime, into out: inout [UInt8]) {
        if options.spreadsheet {
            if datesNeedNoQuoting {
                Self.appendSpreadsheetDate(date, into: &out)
            } else {
                var text: [UInt8] = []
                Self.appendSpreadsheetDate(date, into: &text)
                appendField(String(decoding: text, as: UTF8.self), into: &out)
            }
        } else if datesNeedNoQuoting {
            date.append(to: &out)
        } else {
            appendField(date.description, into: &out)
        }
    }

    /// Appends `text` as one field, quoted only when it must be.
    private func appendField(_ text: String, into out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var seen: UInt64 = 0
            if CSVByteSearch.firstSpecial(base, from: 0, to: bytes.count, delimiter: options.delimiter, seen: &seen)
                == bytes.count
            {
                out.append(contentsOf: bytes)
                return
            }
            out.append(UInt8(ascii: "\""))
            let quotes = SWAR.broadcast(0x22)
            SWAR.appendRewriting(bytes, to: &out, Self.quoteDoubling) { word in SWAR.bytes(word, equalTo: quotes) }
            out.append(UInt8(ascii: "\""))
        }
    }

    /// A quoted field's quotes, each doubled.
    private static let quoteDoubling = ByteRewriteTable { byte in byte == 0x22 ? [0x22, 0x22] : nil }
}
