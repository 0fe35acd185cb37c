import SpeakEasyModel

/// Recognising the contract's plain events among CSV records, for `validate`.
extension CSVEntityReader {
    private static let eventsPartition = Array(DataContract.eventsPartition.utf8)

    /// The current record as a ``PlainEvent`` when it has exactly that shape; nil for anything else,
    /// which the caller reads as an entity. Every finding and every error then comes from the one
    /// full path: this one only has to recognise the plain case, and any doubt (a type cell it does
    /// not expect, a value not yet known to be valid UTF-8…) sends the record there.
    ///
    /// It goes through the columns in the entity's order and leaves the header as reading the entity
    /// would (a column's first type cell types its later empty ones).
    mutating func plainEvent() -> PlainEvent? {
        let fields = scanner.fields
        guard let header, fields.count == header.fieldCount else { return nil }
        var parts = PlainEvent.Parts()
        guard scanner.field(fields[header.partitionKeyColumn], equals: Self.eventsPartition) else { return nil }
        parts.key = bytes(of: fields[header.rowKeyColumn]) { EdmGuid(lowerCase: $0) }
        guard parts.key != nil else { return nil }
        if let column = header.timestampColumn, !fields[column].isEmpty {
            guard bytes(of: fields[column], { (try? EdmDateTime.parse($0)) != nil }) else { return nil }
        }
        for index in header.properties.indices {
            let column = header.properties[index]
            let value = fields[column.valueColumn]
            var type = column.type ?? .string
            if let typeColumn = column.typeColumn, !fields[typeColumn].isEmpty {
                guard
                    let named = bytes(
                        of: fields[typeColumn],
                        { CSVHeader.type(named: $0.assumingMemoryBound(to: UInt8.self)) }
                    )
                else { return nil }
                type = named
                inheritType(type, at: index)
            }
            guard let field = eventFields[index] else {
                // Another partition's column: fine while the event does not have the property.
                if value.isEmpty,
                    emptyValue(value, typeCell: column.typeColumn.map { fields[$0] }, type: type) == nil
                {
                    continue
                }
                return nil
            }
            guard !value.isEmpty, type == (field == .eventDate ? .dateTime : .string),
                value.isASCII || isValidUTF8(value)
            else { return nil }
            switch field {
            case .eventDate:
                guard let date = bytes(of: value, { try? EdmDateTime.parse($0) }) else { return nil }
                parts.date = date
            case .eventDescription:
                parts.setDescription(length: bytes(of: value) { $0.count }, first: bytes(of: value) { $0.first })
            default:
                // Valid, so making the string cannot fail.
                guard let string = try? string(value, column: column.valueColumn) else { return nil }
                parts.set(field, string)
            }
        }
        return parts.event
    }

    /// `body` over the field's bytes (its `""` pairs made single).
    private func bytes<T>(of field: CSVRecordScanner.Field, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        scanner.withBytes(of: field) { bytes in body(UnsafeRawBufferPointer(bytes)) }
    }

    private func isValidUTF8(_ field: CSVRecordScanner.Field) -> Bool {
        bytes(of: field) { CSVByteSearch.firstInvalidUTF8($0.assumingMemoryBound(to: UInt8.self)) == nil }
    }
}
