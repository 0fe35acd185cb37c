import SpeakEasyCore
package import SpeakEasyFormats
package import SpeakEasyModel
package import SpeakEasyStorage

/// The entity a client sends to insert, update or merge: read and checked by the server as Azure
/// checks it, written by the client.
///
/// JSON bodies go through the Formats layer's JSON reader (types from `@odata.type` annotations,
/// else from the JSON value), Atom entries through its Atom reader. The client's `Timestamp` and
/// `odata.etag` are dropped: the service owns both.
package enum TableEntityBody {
    /// The largest body read: an entity is at most 1 MiB as Azure counts it, and even fully
    /// annotated and escaped JSON of one stays far below this.
    package static let maximumBodyBytes = 4 << 20

    /// The `Content-Type` the client sends a JSON body with (the SDKs' choice).
    package static let jsonContentType = "application/json;odata=nometadata"

    /// Reads a request body sent with `contentType`: Atom when it says `atom+xml` or `xml`, else JSON.
    /// `keys` are the URL's when it names the entity (see ``readJSON(_:keys:)``).
    package static func read(
        _ body: [UInt8],
        contentType: String?,
        keys: (partitionKey: String, rowKey: String)? = nil
    ) throws(TableServiceError) -> Entity {
        var reader = JSONPropertiesReader()
        return try read(body[...], contentType: contentType, keys: keys, reader: &reader)
    }

    /// ``read(_:contentType:keys:)`` with a JSON reader that the caller keeps from one body to the
    /// next (a batch's hundred entities): what it learnt of the last one's names and types is reused.
    package static func read(
        _ body: ArraySlice<UInt8>,
        contentType: String?,
        keys: (partitionKey: String, rowKey: String)? = nil,
        reader: inout JSONPropertiesReader
    ) throws(TableServiceError) -> Entity {
        let type = contentType ?? ""
        if type.containsIgnoringASCIICase("atom+xml") || type.lowercased().hasPrefix("application/xml") {
            let entity = try readAtom(Array(body), keysIfAbsent: keys)
            if let keys, entity.partitionKey != keys.partitionKey || entity.rowKey != keys.rowKey {
                throw .invalidInput("The keys in the body differ from the keys in the URL.")
            }
            return entity
        }
        return try readJSON(body, keys: keys, reader: &reader)
    }

    /// Reads and checks a JSON entity object. `keys` are the URL's, for an update or merge by
    /// `table(PartitionKey='…',RowKey='…')`: the body may then leave the keys out, and must not
    /// name others.
    ///
    /// The object is read as plain properties and the keys taken from them, so the client's
    /// `Timestamp` and `odata.etag` are dropped whatever they hold, as Azure ignores them.
    package static func readJSON(
        _ body: [UInt8],
        keys: (partitionKey: String, rowKey: String)? = nil
    ) throws(TableServiceError) -> Entity {
        var reader = JSONPropertiesReader()
        return try readJSON(body[...], keys: keys, reader: &reader)
    }

    static func readJSON(
        _ body: ArraySlice<UInt8>,
        keys: (partitionKey: String, rowKey: String)?,
        reader: inout JSONPropertiesReader
    ) throws(TableServiceError) -> Entity {
        guard body.count <= maximumBodyBytes else { throw .requestBodyTooLarge }
        var properties: [Property]
        let read = body.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) in try reader.properties(fromObject: raw) }
        }
        do throws(JSONSyntaxError) {
            properties = try read.get()
        } catch {
            throw serviceError(error)
        }
        var partitionKey: String?
        var rowKey: String?
        var index = properties.startIndex
        while index < properties.endIndex {
            let property = properties[index]
            switch property.name {
            case "PartitionKey", "RowKey":
                guard case .string(let key) = property.value else {
                    throw .invalidValueType("\(property.name) must be an Edm.String.")
                }
                if property.name == "PartitionKey" { partitionKey = key } else { rowKey = key }
                properties.remove(at: index)
            case "Timestamp":
                properties.remove(at: index)
            default:
                index += 1
            }
        }
        if let keys {
            guard partitionKey ?? keys.partitionKey == keys.partitionKey, rowKey ?? keys.rowKey == keys.rowKey else {
                throw .invalidInput("The keys in the body differ from the keys in the URL.")
            }
            partitionKey = keys.partitionKey
            rowKey = keys.rowKey
        }
        guard let partitionKey, let rowKey else { throw .propertiesNeedValue }
        let entity = Entity(partitionKey: partitionKey, rowKey: rowKey, properties: properties)
        try check(entity)
        return entity
    }

    /// Reads and checks an Atom `<entry>` (the legacy SDK's bodies). `keysIfAbsent` are the URL's,
    /// for an update or merge, whose body (from azure-storage 0.20.3) may leave the keys out.
    package static func readAtom(
        _ body: [UInt8],
        keysIfAbsent: (partitionKey: String, rowKey: String)? = nil
    ) throws(TableServiceError) -> Entity {
        guard body.count <= maximumBodyBytes else { throw .requestBodyTooLarge }
        let reader = AtomEntityReader(input: ByteInput(name: "request body", bytes: body))
        var entities: [Entity] = []
        do throws(FormatError) {
            while entities.count < 2, let entity = try reader.next(keysIfAbsent: keysIfAbsent) {
                entities.append(entity)
            }
        } catch {
            throw serviceError(error)
        }
        guard entities.count == 1, var entity = entities.first else {
            throw .invalidInput(
                entities.isEmpty ? "The request body holds no entity." : "The request body holds more than one entity."
            )
        }
        entity.timestamp = nil
        entity.etag = nil
        try check(entity)
        return entity
    }

    /// Azure's checks on an entity to be written, in the order the codes are most specific.
    package static func check(_ entity: Entity) throws(TableServiceError) {
        for (name, key) in [("PartitionKey", entity.partitionKey), ("RowKey", entity.rowKey)] {
            if let problem = Entity.keyProblem(key) {
                throw .outOfRange(
                    "The '\(name)' parameter of value '\(key.prefix(64))' is out of range: it \(problem)."
                )
            }
        }
        guard entity.properties.count <= Entity.maximumProperties else { throw .tooManyProperties }
        for property in entity.properties {
            try checkName(property.name)
            switch property.value {
            case .string(let text)
            where text.utf8.count > maximumValueBytes / 2 && text.utf16.count * 2 > maximumValueBytes:
                throw .propertyValueTooLarge(property.name)
            case .binary(let bytes) where bytes.count > maximumValueBytes:
                throw .propertyValueTooLarge(property.name)
            case .dateTime(let time) where time < EdmDateTime.azureMinimum:
                throw .outOfRange(
                    "The value of \(property.name) is before 1601-01-01T00:00:00Z, which Azure cannot store."
                )
            default: continue
            }
        }
        if entity.azureSize(exact: false) > Entity.maximumBytes, entity.azureSize(exact: true) > Entity.maximumBytes {
            throw .entityTooLarge
        }
    }

    /// 64 KiB: a string counts two bytes a UTF-16 unit (32 K characters), binary its bytes.
    package static let maximumValueBytes = 64 << 10
    /// Property names are at most 255 characters.
    package static let maximumNameLength = 255

    /// A property name must be a C#-style identifier (a letter or `_`, then letters, digits and `_`)
    /// of at most 255 characters, and none of the system properties.
    static func checkName(_ name: String) throws(TableServiceError) {
        guard name != "PartitionKey", name != "RowKey", name != "Timestamp" else { throw .propertyNameInvalid(name) }
        // Nearly every name is ASCII: its bytes are its characters (a batch checks a thousand names).
        if name.utf8.count <= maximumNameLength, let first = name.utf8.first,
            isASCIILetter(first) || first == UInt8(ascii: "_"),
            name.utf8.allSatisfy({
                isASCIILetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_")
            })
        {
            return
        }
        guard name.count <= maximumNameLength else { throw .propertyNameTooLong(name) }
        guard let first = name.first, first.isLetter || first == "_",
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else {
            throw .propertyNameInvalid(name)
        }
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// The Table service error a JSON reading error stands for.
    static func serviceError(_ error: JSONSyntaxError) -> TableServiceError {
        switch error.problem {
        case .missingKey: .propertiesNeedValue
        case .repeatedKey: .duplicateProperties(error.reason)
        case .invalidValue: .invalidValueType(error.reason)
        // Azure refuses a Double past the largest with InvalidInput, not InvalidValueType (Azurite's
        // EdmDouble.validate, "Test on both Product server and Azurite, they are aligned", issue
        // #2387); an Int64 past its range is taken to be refused alike.
        case .outOfRange: .invalidInput("The request body is not valid: \(error.description).")
        case .syntax: .invalidInput("The request body is not valid JSON: \(error.description)")
        }
    }

    /// The Table service error an Atom reading error stands for. The Atom reader's errors carry
    /// reasons, not kinds, so the few that have codes of their own are told apart by their text
    /// (pinned by the tests of the legacy client's bodies).
    static func serviceError(_ error: FormatError) -> TableServiceError {
        let reason = error.reason
        if reason.contains("has no PartitionKey") || reason.contains("has no RowKey") { return .propertiesNeedValue }
        if reason.contains("is given twice") { return .duplicateProperties(reason) }
        if reason.contains("(out of range)") {
            return .invalidInput("The request body is not a valid Atom entry: \(error.description)")
        }
        if reason.contains("is not a valid") || reason.contains("must be an Edm.String") {
            return .invalidValueType(reason)
        }
        return .invalidInput("The request body is not a valid Atom entry: \(error.description)")
    }

    /// The JSON body a client sends: the properties with the annotations Azure needs to keep their
    /// types, PartitionKey and RowKey first; never Timestamp or an etag.
    package static func writeJSON(_ entity: Entity) -> [UInt8] {
        var out: [UInt8] = Array(#"{"PartitionKey":"#.utf8)
        JSONEntityWriter.appendString(entity.partitionKey, to: &out)
        out += #","RowKey":"#.utf8
        JSONEntityWriter.appendString(entity.rowKey, to: &out)
        for property in entity.properties {
            out += ",".utf8
            JSONEntityWriter.appendPropertyHead(property.name, of: property.value, metadata: .minimal, to: &out)
            TableJSONWriter.appendValue(property.value, to: &out)
        }
        out += "}".utf8
        return out
    }

    /// ``writeJSON(_:)`` of an entity whose properties are encoded already: the keys, then the
    /// properties object's members as they are.
    package static func writeJSON(_ entity: EncodedEntity) -> [UInt8] {
        var out: [UInt8] = Array(#"{"PartitionKey":"#.utf8)
        out.reserveCapacity(entity.properties.count + entity.partitionKey.utf8.count + entity.rowKey.utf8.count + 32)
        JSONEntityWriter.appendString(entity.partitionKey, to: &out)
        out += #","RowKey":"#.utf8
        JSONEntityWriter.appendString(entity.rowKey, to: &out)
        let members = entity.properties.dropFirst()  // after the object's `{`
        if members.first.map({ $0 != UInt8(ascii: "}") }) ?? false { out.append(UInt8(ascii: ",")) }
        out += members.isEmpty ? [UInt8(ascii: "}")] : Array(members)
        return out
    }
}
