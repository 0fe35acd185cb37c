import SpeakEasyModel

/// Recognising the contract's plain events among scanned objects, for `validate`.
extension JSONEntityDecoder {
    private static let eventsPartition = Array(DataContract.eventsPartition.utf8)

    /// The object just scanned as a ``PlainEvent`` when it has exactly that shape; nil for anything
    /// else, which the caller builds as an entity. Every finding and every error about a value then
    /// comes from the one full path: this one only has to recognise the plain case, and any doubt
    /// (an escaped date, a `null`, a non-ASCII string not yet validated…) sends the object there.
    mutating func scannedPlainEvent(_ bytes: UnsafeRawBufferPointer) -> PlainEvent? {
        var parts = PlainEvent.Parts()
        var isEvent = false
        var isTyped = false
        func raw(_ range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[range]) }
        for index in members.indices {
            switch roles[index] {
            case .partitionKey:
                guard case .string(.plain(let range, _)) = members[index].value,
                    Self.equal(Self.eventsPartition, raw(range))
                else { return nil }
                isEvent = true
            case .rowKey:
                guard case .string(.plain(let range, _)) = members[index].value,
                    let guid = EdmGuid(lowerCase: raw(range))
                else { return nil }
                parts.key = guid
            case .timestamp:
                if case .null = members[index].value { continue }
                guard case .string(.plain(let range, _)) = members[index].value,
                    (try? EdmDateTime.parse(raw(range))) != nil
                else { return nil }
            case .etag:
                guard case .string(let text) = members[index].value, Self.isValid(text, bytes) else { return nil }
            case .ignored:
                continue
            case .annotation(of: PlainEvent.Field.eventDate.rawValue):
                guard (try? annotatedType(index, bytes)) == .dateTime else { return nil }
                isTyped = true
            case .annotation, .property(field: nil):
                return nil
            case .property(field: let field?):
                guard case .string(let text) = members[index].value else { return nil }
                switch field {
                case .eventDate:
                    guard case .plain(let range, ascii: true) = text, let date = try? EdmDateTime.parse(raw(range))
                    else { return nil }
                    parts.date = date
                case .eventDescription:
                    guard Self.isValid(text, bytes) else { return nil }
                    parts.setDescription(length: Self.utf8Count(text), first: Self.firstByte(text, bytes))
                default:
                    let string: String?
                    switch text {
                    case .escaped(let decoded): string = decoded
                    case .plain(let range, let ascii): string = interned(raw(range), ascii: ascii, column: index)
                    }
                    guard let string else { return nil }
                    parts.set(field, string)
                }
            }
        }
        return isEvent && isTyped ? parts.event : nil
    }

    /// Whether a string member holds valid UTF-8 (escaped ones were validated as they were decoded).
    private static func isValid(_ text: JSONMember.Text, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard case .plain(let range, ascii: false) = text else { return true }
        return string(UnsafeRawBufferPointer(rebasing: bytes[range]), ascii: false) != nil
    }

    private static func firstByte(_ text: JSONMember.Text, _ bytes: UnsafeRawBufferPointer) -> UInt8? {
        switch text {
        case .escaped(let string): string.utf8.first
        case .plain(let range, _): range.isEmpty ? nil : bytes[range.lowerBound]
        }
    }

    private static func utf8Count(_ text: JSONMember.Text) -> Int {
        switch text {
        case .escaped(let string): string.utf8.count
        case .plain(let range, _): range.count
        }
    }
}
