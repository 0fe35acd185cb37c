/// Reads Azure Table JSON entity objects into typed properties.
///
/// Lenient as the issue asks: keys in any order, annotations before or after their value, the OData
/// v4 spelling `@odata.type` / v3 `odata.type`, `null` meaning an absent property. Without an
/// annotation a string is `Edm.String`, `true`/`false` `Edm.Boolean`, a number with `.` or an exponent
/// `Edm.Double`, an integer `Edm.Int32` (or `Edm.Int64` beyond Int32, as azure-data-tables reads it).
package enum JSONEntityReader {
    /// Parses one flat object of properties, as the SQLite account stores them.
    package static func properties(fromObject bytes: [UInt8]) throws(JSONSyntaxError) -> [Property] {
        var scanner = JSONScanner(bytes)
        let members = try objectMembers(&scanner)
        guard scanner.peek() == nil else { throw scanner.error("unexpected content after the object") }
        return try typedProperties(members, scanner: scanner)
    }

    /// Parses one entity object: `PartitionKey`, `RowKey`, `Timestamp` and `odata.etag` (or v4
    /// `@odata.etag`) go to the entity's fields, the rest are typed properties. `line`/`column` give
    /// where the object starts in its input, so errors point into the input.
    package static func entity(fromObject bytes: [UInt8], line: Int = 1, column: Int = 1) throws(JSONSyntaxError) -> Entity {
        var scanner = JSONScanner(bytes, line: line, column: column)
        let start = scanner.error("")
        var members = try objectMembers(&scanner)
        guard scanner.peek() == nil else { throw scanner.error("unexpected content after the object") }
        var partitionKey: String?, rowKey: String?, timestamp: EdmDateTime?, etag: String?
        var failure: JSONSyntaxError?
        members.removeAll { member in
            func string(_ name: String) -> String? {
                guard case .string(let text) = member.value else {
                    failure = failure ?? JSONSyntaxError(line: member.location.line, column: member.location.column, reason: "\(name) must be a string")
                    return nil
                }
                return text
            }
            switch member.key {
            case "PartitionKey": partitionKey = string("PartitionKey")
            case "RowKey": rowKey = string("RowKey")
            case "odata.etag", "@odata.etag": etag = string(member.key)
            case "Timestamp":
                guard member.value != .null else { return true }
                if let text = string("Timestamp") {
                    do { timestamp = try EdmDateTime(parsing: text) } catch {
                        failure = failure ?? JSONSyntaxError(line: member.location.line, column: member.location.column, reason: "Timestamp: \(error)")
                    }
                }
            case "Timestamp@odata.type", "PartitionKey@odata.type", "RowKey@odata.type": return true
            default: return false
            }
            return true
        }
        if let failure { throw failure }
        guard let partitionKey else { throw JSONSyntaxError(line: start.line, column: start.column, reason: "the entity has no PartitionKey") }
        guard let rowKey else { throw JSONSyntaxError(line: start.line, column: start.column, reason: "the entity has no RowKey") }
        return Entity(partitionKey: partitionKey, rowKey: rowKey, timestamp: timestamp, etag: etag, properties: try typedProperties(members, scanner: scanner))
    }

    /// One member of an object as read, with where its value starts (for error messages).
    package struct Member: Sendable {
        package var key: String
        package var value: JSONScalar
        package var location: JSONSyntaxError
    }

    /// Reads `{ "key": scalar, … }` into its members in order; a key given twice is malformed.
    package static func objectMembers(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> [Member] {
        try scanner.expect(UInt8(ascii: "{"))
        var members: [Member] = []
        var seen = Set<String>()
        if scanner.consume(UInt8(ascii: "}")) { return members }
        repeat {
            guard scanner.peek() == UInt8(ascii: "\"") else { throw scanner.error("expected a property name in quotes") }
            let keyLocation = scanner.error("")
            let key = try scanner.string()
            guard seen.insert(key).inserted else {
                throw JSONSyntaxError(line: keyLocation.line, column: keyLocation.column, reason: "\(key) is given twice")
            }
            try scanner.expect(UInt8(ascii: ":"))
            _ = scanner.peek()
            let location = scanner.error("")
            members.append(Member(key: key, value: try scanner.scalar(), location: location))
        } while scanner.consume(UInt8(ascii: ","))
        try scanner.expect(UInt8(ascii: "}"))
        return members
    }

    /// Pairs values with their annotations and types them; `odata.*` and `@odata.*` members are skipped.
    package static func typedProperties(_ members: [Member], scanner: JSONScanner) throws(JSONSyntaxError) -> [Property] {
        func error(_ member: Member, _ reason: String) -> JSONSyntaxError {
            JSONSyntaxError(line: member.location.line, column: member.location.column, reason: reason)
        }
        var annotations: [String: EdmType] = [:]
        for member in members {
            guard let name = annotatedName(member.key), !name.isEmpty else { continue }
            guard case .string(var typeName) = member.value else { throw error(member, "\(member.key) names no Edm type") }
            if typeName.hasPrefix("#") { typeName.removeFirst() }  // OData v4: "#Int64"
            if typeName == "DateTimeOffset" || typeName == "Edm.DateTimeOffset" { typeName = "Edm.DateTime" }
            guard let type = EdmType(name: typeName) else { throw error(member, "\(member.key) names no Edm type") }
            annotations[name] = type
        }
        var properties: [Property] = []
        properties.reserveCapacity(members.count)
        for member in members where !member.key.contains("@") && !member.key.hasPrefix("odata.") {
            if member.value == .null { continue }
            guard let value = typedValue(member.value, declared: annotations[member.key]) else {
                throw error(member, "the value of \(member.key) is not a valid \(annotations[member.key]?.rawValue ?? "JSON property value")")
            }
            properties.append(Property(member.key, value))
        }
        return properties
    }

    /// `Name` for `Name@odata.type` (v3 and v4 spellings), nil for any other key.
    static func annotatedName(_ key: String) -> String? {
        for suffix in ["@odata.type", "@type"] where key.hasSuffix(suffix) {
            return String(key.dropLast(suffix.count))
        }
        return nil
    }

    static func typedValue(_ scalar: JSONScalar, declared: EdmType?) -> EdmValue? {
        switch (scalar, declared) {
        case (.string(let text), nil): return .string(text)
        case (.string(let text), let type?): return EdmValue(lexical: text, as: type)
        case (.boolean(let flag), nil), (.boolean(let flag), .boolean?): return .boolean(flag)
        case (.number(let text), nil):
            if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return Double(text).map { .double($0) } }
            if let int = Int32(text) { return .int32(int) }
            return Int64(text).map { .int64($0) }
        case (.number(let text), .int32?): return Int32(text).map { .int32($0) }
        case (.number(let text), .int64?): return Int64(text).map { .int64($0) }
        case (.number(let text), .double?): return Double(text).map { .double($0) }
        default: return nil
        }
    }
}
