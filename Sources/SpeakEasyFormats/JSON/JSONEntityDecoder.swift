import SpeakEasyCore
import SpeakEasyModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns scanned JSON entity objects into entities: keys to the entity's fields, values typed by
/// their annotations.
///
/// Lenient, as the Formats article's table promises: keys in any order, annotations before or after their value, the OData
/// v4 spelling `@odata.type` / v3 `odata.type`, `null` meaning an absent property. Without an
/// annotation a string is `Edm.String`, `true`/`false` `Edm.Boolean`, a number with `.` or an exponent
/// `Edm.Double`, an integer `Edm.Int32` (or `Edm.Int64` beyond Int32, as azure-data-tables reads it).
///
/// One decoder reads a whole stream, and remembers each member position's key from the previous
/// object: the entities of one source share their property names, so in the steady state no key is
/// decoded or classified twice.
struct JSONEntityDecoder {
    enum Mode {
        /// Entity objects: `PartitionKey`, `RowKey`, `Timestamp` and the etag go to the entity's fields.
        case entity
        /// A flat object of properties only, as the SQLite account stores them.
        case properties
    }

    private let mode: Mode
    var members: [JSONMember] = []
    private var keys: [Key] = []
    // Per object, reused from one to the next (no allocation per entity): each member's name and
    // role, and the types the annotations name.
    private var names: [String] = []
    var roles: [Role] = []
    private var annotations: [(name: String, type: EdmType)] = []
    /// How many leading cached keys are known to be distinct: an object whose every key is one of
    /// them, in place, needs no check for a key given twice.
    private var distinctKeys = 0
    private var interner = StringInterner()
    /// The type each member position's annotation named last time, by the annotation's bytes.
    private var types: [(bytes: [UInt8], type: EdmType)?] = []

    init(mode: Mode) { self.mode = mode }

    /// What a member key means.
    enum Role: Equatable {
        case partitionKey, rowKey, timestamp, etag
        /// `odata.*` members, other annotations, and the type annotations of the entity's fields.
        case ignored
        /// `Name@odata.type` (or `Name@type`): the type of property `Name`.
        case annotation(of: String)
        /// A property; `field` tells the ones of the contract's events apart (``PlainEvent``).
        case property(field: PlainEvent.Field?)
    }

    private struct Key {
        var bytes: [UInt8]
        var name: String
        var role: Role
    }

    /// Reads the entity object at the scanner's position.
    mutating func entity(_ scanner: inout JSONObjectScanner) throws(JSONSyntaxError) -> Entity {
        let start = scanner.error("")
        try scan(&scanner)
        return try scannedEntity(scanner.bytes, start: start)
    }

    /// Reads the entity object at the scanner's position: as a ``PlainEvent`` when `plainEvents` is
    /// set and it has that shape, else as an entity.
    mutating func item(_ scanner: inout JSONObjectScanner, plainEvents: Bool) throws(JSONSyntaxError) -> EntityItem {
        let start = scanner.error("")
        try scan(&scanner)
        if plainEvents, let event = scannedPlainEvent(scanner.bytes) { return .plainEvent(event) }
        return .entity(try scannedEntity(scanner.bytes, start: start))
    }

    /// The entity of the object just scanned; `start` locates errors about the object as a whole.
    private mutating func scannedEntity(
        _ bytes: UnsafeRawBufferPointer,
        start: JSONSyntaxError
    ) throws(JSONSyntaxError) -> Entity {
        var partitionKey: String?
        var rowKey: String?
        var timestamp: EdmDateTime?
        var etag: String?
        for (index, role) in roles.enumerated() {
            let member = members[index]
            func string() throws(JSONSyntaxError) -> String {
                guard case .string(let text) = member.value else {
                    throw Self.error(member, "\(names[index]) must be a string")
                }
                return try self.text(text, member, bytes)
            }
            switch role {
            case .partitionKey: partitionKey = try string()
            case .rowKey: rowKey = try string()
            case .etag: etag = try string()
            case .timestamp:
                if case .null = member.value { continue }
                let text = try string()
                do { timestamp = try EdmDateTime(parsing: text) } catch {
                    throw Self.error(member, "Timestamp: \(error)")
                }
            default: continue
            }
        }
        guard let partitionKey else {
            throw JSONSyntaxError(
                line: start.line,
                column: start.column,
                reason: "the entity has no PartitionKey",
                problem: .missingKey
            )
        }
        guard let rowKey else {
            throw JSONSyntaxError(
                line: start.line,
                column: start.column,
                reason: "the entity has no RowKey",
                problem: .missingKey
            )
        }
        return Entity(
            partitionKey: partitionKey,
            rowKey: rowKey,
            timestamp: timestamp,
            etag: etag,
            properties: try properties(bytes)
        )
    }

    /// Reads the flat object of properties at the scanner's position.
    mutating func properties(_ scanner: inout JSONObjectScanner) throws(JSONSyntaxError) -> [Property] {
        try scan(&scanner)
        return try properties(scanner.bytes)
    }

    // MARK: - Keys

    /// Scans the object into `members`, `names` and `roles`; a key given twice is malformed.
    private mutating func scan(_ scanner: inout JSONObjectScanner) throws(JSONSyntaxError) {
        try scanner.scanObject(into: &members)
        names.removeAll(keepingCapacity: true)
        roles.removeAll(keepingCapacity: true)
        var allCached = members.count <= distinctKeys
        var escaped = false
        for index in members.indices {
            let (name, role, cached) = try key(index, scanner.bytes)
            names.append(name)
            roles.append(role)
            allCached = allCached && cached
            if case .escaped = members[index].key { escaped = true }
        }
        if !allCached {
            if let repeated = Self.firstRepeat(names) {
                let member = members[repeated]
                throw JSONSyntaxError(
                    line: member.keyLine,
                    column: member.keyColumn,
                    reason: "\(names[repeated]) is given twice",
                    problem: .repeatedKey
                )
            }
            // The cache now holds exactly these names, unless an escaped key was not cached.
            distinctKeys = !escaped && keys.count >= names.count ? names.count : 0
        }
    }

    /// The key of member `index`, and whether it was the cached key: reused from the previous object
    /// when its bytes are the same.
    private mutating func key(
        _ index: Int,
        _ bytes: UnsafeRawBufferPointer
    ) throws(JSONSyntaxError) -> (String, Role, Bool) {
        let member = members[index]
        switch member.key {
        case .escaped(let name):
            return (name, role(of: name), false)
        case .plain(let range, let ascii):
            let raw = UnsafeRawBufferPointer(rebasing: bytes[range])
            if index < keys.count, Self.equal(keys[index].bytes, raw) {
                return (keys[index].name, keys[index].role, true)
            }
            guard let name = Self.string(raw, ascii: ascii) else {
                throw JSONSyntaxError(
                    line: member.keyLine,
                    column: member.keyColumn,
                    reason: "a property name is not valid UTF-8"
                )
            }
            let key = Key(bytes: Array(raw), name: name, role: role(of: name))
            if index < keys.count {
                keys[index] = key
                distinctKeys = min(distinctKeys, index)
            } else if index == keys.count {
                keys.append(key)
            }
            return (name, key.role, false)
        }
    }

    static func equal(_ cached: [UInt8], _ raw: UnsafeRawBufferPointer) -> Bool {
        cached.count == raw.count
            && cached.withUnsafeBytes { memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0 }
    }

    private func role(of key: String) -> Role {
        if mode == .entity {
            switch key {
            case "PartitionKey": return .partitionKey
            case "RowKey": return .rowKey
            case "Timestamp": return .timestamp
            case "odata.etag", "@odata.etag": return .etag
            case "Timestamp@odata.type", "PartitionKey@odata.type", "RowKey@odata.type": return .ignored
            default: break
            }
        }
        // Compared as bytes (Character comparisons cost a microsecond a key).
        let bytes = key.utf8
        if bytes.contains(UInt8(ascii: "@")) {
            for suffix in ["@odata.type".utf8, "@type".utf8]
            where bytes.count > suffix.count && bytes.suffix(suffix.count).elementsEqual(suffix) {
                return .annotation(of: String(decoding: bytes.dropLast(suffix.count), as: UTF8.self))
            }
            return .ignored
        }
        if bytes.starts(with: "odata.".utf8) { return .ignored }
        return .property(field: mode == .entity ? PlainEvent.Field(rawValue: key) : nil)
    }

    /// The index of the first name that repeats an earlier one, if any.
    private static func firstRepeat(_ names: [String]) -> Int? {
        if names.count <= 32 {
            for i in names.indices {
                for j in 0..<i where names[j] == names[i] { return i }
            }
            return nil
        }
        var seen = Set<String>()
        return names.firstIndex { !seen.insert($0).inserted }
    }

    // MARK: - Values

    /// Pairs values with their annotations and types them.
    private mutating func properties(_ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> [Property] {
        annotations.removeAll(keepingCapacity: true)
        for (index, role) in roles.enumerated() {
            guard case .annotation(let name) = role else { continue }
            annotations.append((name, try annotatedType(index, bytes)))
        }
        // Beyond a few annotations, a table finds them without a search per property.
        let byName =
            annotations.count > 16
            ? Dictionary(annotations.map { ($0.name, $0.type) }, uniquingKeysWith: { first, _ in first }) : nil
        var properties: [Property] = []
        properties.reserveCapacity(roles.count - annotations.count)
        var annotated = 0
        for (index, role) in roles.enumerated() {
            guard case .property = role else { continue }
            let member = members[index]
            let name = names[index]
            let declared =
                annotations.isEmpty ? nil : byName.map { $0[name] } ?? annotations.first { $0.name == name }?.type
            if declared != nil { annotated += 1 }
            if case .null = member.value { continue }
            guard let value = try typedValue(member, at: index, declared: declared, bytes) else {
                let note = Self.rangeNote(member, declared, bytes)
                throw Self.error(
                    member,
                    "the value of \(name) is not a valid \(declared?.rawValue ?? "JSON property value")\(note)",
                    note.isEmpty ? .invalidValue : .outOfRange
                )
            }
            properties.append(Property(name, value))
        }
        if annotated < annotations.count { throw annotationWithoutValue() }
        return properties
    }

    /// The error for the first type annotation whose property is not in the object: dropping it
    /// silently would lose what the writer meant to say.
    /// (The names go into a set first: a search through them for each annotation was quadratic, 72 s for
    /// 70,000 annotations under AddressSanitizer, found by `Fuzz/run --stress`.)
    private func annotationWithoutValue() -> JSONSyntaxError {
        var propertyNames = Set<String>()
        for (name, role) in zip(names, roles) {
            if case .property = role { propertyNames.insert(name) }
        }
        for (index, role) in roles.enumerated() {
            guard case .annotation(let name) = role, !propertyNames.contains(name) else { continue }
            let member = members[index]
            return JSONSyntaxError(
                line: member.keyLine,
                column: member.keyColumn,
                reason: "\(names[index]) gives the type of \(name), but the object has no \(name)",
                problem: .invalidValue
            )
        }
        preconditionFailure("every annotation has its property")
    }

    /// Says a number is out of range when that is why it is no value of its type (`1e999` is a
    /// valid JSON number, but no finite Edm.Double).
    private static func rangeNote(_ member: JSONMember, _ declared: EdmType?, _ bytes: UnsafeRawBufferPointer) -> String
    {
        let text: String
        switch member.value {
        case .number(let range): text = String(decoding: bytes[range], as: UTF8.self)
        case .string(.plain(let range, ascii: true)): text = String(decoding: bytes[range], as: UTF8.self)
        default: return ""
        }
        return EdmValue.isOutOfRange(
            text,
            as: declared ?? (text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? .double : .int64)
        ) ? " (out of range)" : ""
    }

    /// The type annotation member `index` names, reused from the previous object when its bytes are
    /// the same.
    mutating func annotatedType(_ index: Int, _ bytes: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> EdmType {
        let member = members[index]
        guard case .string(let text) = member.value else {
            throw Self.error(member, "\(names[index]) names no Edm type")
        }
        if case .plain(let range, _) = text, index < types.count, let cached = types[index],
            Self.equal(cached.bytes, UnsafeRawBufferPointer(rebasing: bytes[range]))
        {
            return cached.type
        }
        guard let type = Self.edmType(try self.text(text, member, bytes)) else {
            throw Self.error(member, "\(names[index]) names no Edm type")
        }
        if case .plain(let range, _) = text {
            while types.count <= index { types.append(nil) }
            types[index] = (Array(UnsafeRawBufferPointer(rebasing: bytes[range])), type)
        }
        return type
    }

    /// `Edm.Int64`, `Int64` and OData v4's `#Int64`; `DateTimeOffset` is read as `Edm.DateTime`.
    private static func edmType(_ name: String) -> EdmType? {
        var name = Substring(name)
        if name.hasPrefix("#") { name = name.dropFirst() }
        if name == "DateTimeOffset" || name == "Edm.DateTimeOffset" { return .dateTime }
        return EdmType(name: name)
    }

    private mutating func typedValue(
        _ member: JSONMember,
        at index: Int,
        declared: EdmType?,
        _ bytes: UnsafeRawBufferPointer
    ) throws(JSONSyntaxError) -> EdmValue? {
        switch (member.value, declared) {
        case (.string(.plain(let range, let ascii)), nil), (.string(.plain(let range, let ascii)), .string?):
            guard let string = interned(UnsafeRawBufferPointer(rebasing: bytes[range]), ascii: ascii, column: index)
            else {
                throw Self.error(member, "a string is not valid UTF-8", .syntax)
            }
            return .string(string)
        case (.string(let text), nil), (.string(let text), .string?):
            return .string(try self.text(text, member, bytes))
        case (.string(.plain(let range, _)), .dateTime?):
            // The hot typed value: parsed from the bytes, no String made.
            return (try? EdmDateTime.parse(UnsafeRawBufferPointer(rebasing: bytes[range]))).map(EdmValue.dateTime)
        case (.string(let text), let type?):
            return EdmValue(lexical: try self.text(text, member, bytes), as: type)
        case (.boolean(let flag), nil), (.boolean(let flag), .boolean?):
            return .boolean(flag)
        case (.number(let range), nil):
            let raw = UnsafeRawBufferPointer(rebasing: bytes[range])
            if raw.contains(where: { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }) {
                return Self.double(raw).map(EdmValue.double)
            }
            guard let integer = Self.integer(raw) else { return nil }
            return Int32(exactly: integer).map(EdmValue.int32) ?? .int64(integer)
        case (.number(let range), .int32?):
            return Self.integer(UnsafeRawBufferPointer(rebasing: bytes[range])).flatMap { Int32(exactly: $0) }.map(
                EdmValue.int32
            )
        case (.number(let range), .int64?):
            return Self.integer(UnsafeRawBufferPointer(rebasing: bytes[range])).map(EdmValue.int64)
        case (.number(let range), .double?):
            return Self.double(UnsafeRawBufferPointer(rebasing: bytes[range])).map(EdmValue.double)
        default:
            return nil
        }
    }

    /// A plain string's value, shared with an earlier object's String in the same member position
    /// when the bytes are the same (``StringInterner``); nil when it is not valid UTF-8.
    mutating func interned(_ raw: UnsafeRawBufferPointer, ascii: Bool, column: Int) -> String? {
        struct Invalid: Error {}
        return try? interner.string(raw, column: column) { () throws(Invalid) in
            guard let string = Self.string(raw, ascii: ascii) else { throw Invalid() }
            return string
        }
    }

    private func text(
        _ text: JSONMember.Text,
        _ member: JSONMember,
        _ bytes: UnsafeRawBufferPointer
    ) throws(JSONSyntaxError) -> String {
        switch text {
        case .escaped(let string): return string
        case .plain(let range, let ascii):
            guard let string = Self.string(UnsafeRawBufferPointer(rebasing: bytes[range]), ascii: ascii) else {
                throw Self.error(member, "a string is not valid UTF-8", .syntax)
            }
            return string
        }
    }

    /// ASCII needs no validation; anything else must be valid UTF-8.
    static func string(_ raw: UnsafeRawBufferPointer, ascii: Bool) -> String? {
        if ascii { return String(decoding: raw, as: UTF8.self) }
        return String(validating: raw.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    }

    /// A grammar-checked JSON integer, or nil when it does not fit Int64.
    private static func integer(_ raw: UnsafeRawBufferPointer) -> Int64? {
        let negative = raw.first == UInt8(ascii: "-")
        var value: Int64 = 0
        for byte in raw.dropFirst(negative ? 1 : 0) {
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }  // a fraction or exponent
            let digit = Int64(byte &- UInt8(ascii: "0"))
            let (scaled, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) =
                negative ? scaled.subtractingReportingOverflow(digit) : scaled.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
        }
        return value
    }

    /// A finite Double: `1e999` is out of Edm.Double's range, not Infinity.
    private static func double(_ raw: UnsafeRawBufferPointer) -> Double? {
        Double(String(decoding: raw, as: UTF8.self)).flatMap { $0.isFinite ? $0 : nil }
    }

    /// An error in a member's value: a value of the wrong type unless said otherwise.
    private static func error(
        _ member: JSONMember,
        _ reason: String,
        _ problem: JSONSyntaxError.Problem = .invalidValue
    ) -> JSONSyntaxError {
        JSONSyntaxError(line: member.line, column: member.column, reason: reason, problem: problem)
    }
}
