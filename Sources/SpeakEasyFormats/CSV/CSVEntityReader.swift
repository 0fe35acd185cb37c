package import SpeakEasyCore
package import SpeakEasyModel

/// Reads entities from CSV with a header row, in either layout (``CSVLayout``), one record at a time.
///
/// The header must name `PartitionKey` and `RowKey`; a `Timestamp` column fills
/// ``Entity/timestamp`` (an empty cell is no timestamp) and never becomes a property. The layout is
/// typed when the header has `Name@type` columns. Every row must have as many fields as the header.
///
/// Empty cells: a table has no nulls, so an empty value cell is an absent property — except in the
/// typed layout when the row's own type cell is filled and names `Edm.String` or `Edm.Binary`, types
/// whose lexical form can be empty: then it is the empty string (or empty binary); and in the plain
/// layout when the cell is quoted (`""`) in a string column: then it is the empty string, unless the
/// header quotes every one of its cells, as writers that quote every cell do (``CSVHeader/quotesEveryCell``).
/// The formatter leaves the type cell empty for absent properties and quotes empty strings in plain
/// CSV, so empty versus absent survives both layouts. An
/// empty type cell inherits the column's first non-empty type (Storage Explorer 1.40 wrote types only
/// on the first row); a value with no type at all yet is `Edm.String`.
package struct CSVEntityReader: EntityReader {
    let scanner: CSVRecordScanner
    var header: CSVHeader?
    var interner = StringInterner()
    package private(set) var entityLine = 0
    let plainEvents: Bool
    let keepsUnreadableDates: Bool
    /// For each of the header's property columns, which property of the contract's events it holds.
    var eventFields: [PlainEvent.Field?] = []

    /// Reads `input`; `delimiter` is one ASCII byte other than `"`, CR and LF (`,`, tab, `;`…).
    /// `chunkSize` is how much is read at a time (tests make it tiny). `plainEvents` makes
    /// ``nextItem()`` hand over events of the contract's plain shape as ``PlainEvent``s.
    /// `keepsUnreadableDates` reads a value in a plain-layout date column that is no date as a string
    /// (``EntityFiles/ReadOptions/keepsUnreadableDates``). `origin` is
    /// where the input starts in its file: a piece after the header (``CSVSplitter``), whose added
    /// header lines come first.
    package init(
        _ input: ByteInput,
        delimiter: UInt8 = UInt8(ascii: ","),
        chunkSize: Int = CSVRecordScanner.defaultChunkSize,
        plainEvents: Bool = false,
        keepsUnreadableDates: Bool = false,
        origin: TextOrigin = .start
    ) throws(FormatError) {
        try CSVFormatter.checkDelimiter(delimiter)
        precondition(origin.fileColumn == 1, "a CSV piece starts at the start of a line")
        // The added header's lines are numbered just before the file's line where the piece starts
        // (they are never reported: the first piece read the same header).
        scanner = CSVRecordScanner(
            input,
            delimiter: delimiter,
            chunkSize: chunkSize,
            firstLine: origin.fileLine - (origin.firstLine - 1)
        )
        self.plainEvents = plainEvents
        self.keepsUnreadableDates = keepsUnreadableDates
    }

    /// The layout the header announced; nil until the first ``next()``.
    package var layout: CSVLayout? { header?.layout }

    package mutating func next() throws(FormatError) -> Entity? {
        guard try nextRecord() else { return nil }
        return try entity()
    }

    package mutating func nextItem() throws(FormatError) -> EntityItem? {
        guard try nextRecord() else { return nil }
        if plainEvents, let event = plainEvent() { return .plainEvent(event) }
        return .entity(try entity())
    }

    /// Reads the header first if not yet read, then the next record; false at the end.
    private mutating func nextRecord() throws(FormatError) -> Bool {
        if header == nil {
            guard try scanner.nextRecord() else {
                throw scanner.error(
                    "the input is empty; CSV needs a header row naming PartitionKey and RowKey",
                    line: 1,
                    column: 1
                )
            }
            header = try CSVHeader(scanner)
            eventFields = header!.properties.map { PlainEvent.Field(rawValue: $0.name) }
        }
        guard try scanner.nextRecord() else { return false }
        entityLine = scanner.recordLine
        return true
    }

    private mutating func entity() throws(FormatError) -> Entity {
        let fields = scanner.fields
        let expected = header!.fieldCount
        if fields.count != expected {
            if fields.count > expected {
                let extra = fields[expected]
                throw scanner.error(
                    "this row has \(fields.count) fields but the header has \(expected)",
                    line: extra.line,
                    column: extra.column
                )
            }
            throw scanner.error(
                "this row has \(fields.count) fields but the header has \(expected)",
                line: scanner.endLine,
                column: scanner.endColumn
            )
        }
        let partitionKey = try string(fields[header!.partitionKeyColumn], column: header!.partitionKeyColumn)
        let rowKey = try string(fields[header!.rowKeyColumn], column: header!.rowKeyColumn)
        var entity = Entity(partitionKey: partitionKey, rowKey: rowKey)
        if let column = header!.timestampColumn, !fields[column].isEmpty {
            entity.timestamp = try dateTime(fields[column], name: CSVHeader.timestamp, keys: (partitionKey, rowKey))
        }
        entity.properties.reserveCapacity(header!.properties.count)
        for index in header!.properties.indices {
            let column = header!.properties[index]
            let valueField = fields[column.valueColumn]
            var type = column.type ?? .string
            if let typeColumn = column.typeColumn, !fields[typeColumn].isEmpty {
                type = try self.type(in: fields[typeColumn], of: column.name)
                inheritType(type, at: index)
            }
            if valueField.isEmpty {
                if let empty = emptyValue(valueField, typeCell: column.typeColumn.map { fields[$0] }, type: type) {
                    entity.properties.append(Property(column.name, empty))
                }
                continue
            }
            let value = try self.value(
                valueField,
                column: column.valueColumn,
                as: type,
                typedByContract: column.typeColumn == nil,
                name: column.name,
                keys: (partitionKey, rowKey)
            )
            entity.properties.append(Property(column.name, value))
        }
        return entity
    }

    /// What an empty value cell holds (see the type's documentation): nil for an absent property.
    func emptyValue(
        _ field: CSVRecordScanner.Field,
        typeCell: CSVRecordScanner.Field?,
        type: EdmType
    ) -> EdmValue? {
        if let typeCell {
            guard !typeCell.isEmpty else { return nil }
            return type == .string ? .string("") : type == .binary ? .binary([]) : nil
        }
        return field.isQuoted && type == .string && !header!.quotesEveryCell ? .string("") : nil
    }

    /// A column's first type cell gives its later empty ones their type.
    mutating func inheritType(_ type: EdmType, at index: Int) {
        if header!.properties[index].type == nil { header!.properties[index].type = type }
    }

    private func type(in field: CSVRecordScanner.Field, of name: String) throws(FormatError) -> EdmType {
        let type = scanner.withBytes(of: field) { bytes in CSVHeader.type(named: bytes) }
        guard let type else {
            let text = try scanner.string(field)
            throw scanner.error(
                "\(name)@type: '\(Self.excerpt(text))' is not an Edm type (Edm.String, Edm.Int32, Edm.Int64, Edm.Double, Edm.Boolean, Edm.DateTime, Edm.Guid, Edm.Binary, with or without 'Edm.')",
                line: field.line,
                column: field.column
            )
        }
        return type
    }

    /// The field's value as `type`; `typedByContract` when only the contract gives the type (plain CSV).
    private mutating func value(
        _ field: CSVRecordScanner.Field,
        column: Int,
        as type: EdmType,
        typedByContract: Bool,
        name: String,
        keys: (String, String)
    ) throws(FormatError) -> EdmValue {
        switch type {
        case .string: return .string(try string(field, column: column))
        case .dateTime where typedByContract && keepsUnreadableDates:
            // Only the contract says this column holds dates: one that is none is kept, to be reported.
            guard let date = try? dateTime(field, name: name, keys: keys) else {
                return .string(try string(field, column: column))
            }
            return .dateTime(date)
        case .dateTime: return .dateTime(try dateTime(field, name: name, keys: keys))
        default:
            let text = try scanner.string(field)
            guard let value = EdmValue(lexical: text, as: type) else {
                throw scanner.error(
                    "\(name): '\(Self.excerpt(text))' is not an \(type.rawValue)",
                    line: field.line,
                    column: field.column,
                    keys: keys
                )
            }
            return value
        }
    }

    /// The field's text, shared with an earlier row's when the bytes are the same (``StringInterner``).
    mutating func string(_ field: CSVRecordScanner.Field, column: Int) throws(FormatError) -> String {
        let scanner = self.scanner
        return try scanner.withBytes(of: field) { bytes throws(FormatError) in
            try interner.string(UnsafeRawBufferPointer(bytes), column: column) { () throws(FormatError) in
                try scanner.string(bytes, of: field)
            }
        }
    }

    /// Parsed from the field's bytes: no String unless it is malformed.
    private func dateTime(
        _ field: CSVRecordScanner.Field,
        name: String,
        keys: (String, String)
    ) throws(FormatError) -> EdmDateTime {
        let parsed = scanner.withBytes(of: field) { bytes in try? EdmDateTime.parse(UnsafeRawBufferPointer(bytes)) }
        if let parsed { return parsed }
        let text = try scanner.string(field)
        do {
            return try EdmDateTime(parsing: text)
        } catch {
            throw scanner.error(
                "\(name): '\(Self.excerpt(text))' is not an Edm.DateTime (\(error.reason))",
                line: field.line,
                column: field.column,
                keys: keys
            )
        }
    }

    /// The start of a long value, so an error message stays one line.
    private static func excerpt(_ text: String) -> String {
        text.count <= 64 ? text : text.prefix(64) + "…"
    }
}
