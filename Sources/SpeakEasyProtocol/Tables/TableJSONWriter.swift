package import SpeakEasyFormats
package import SpeakEasyModel
package import SpeakEasyStorage

/// Writes the Table service's JSON response bodies at each metadata level, as Azure writes them:
/// query results, one entity (a GET, or the 201 of an insert), the table list and a created table.
///
/// The output is byte-for-byte the recorded service's (`Tests/Fixtures/azure/table-json-query-*.json`)
/// for the same entities: members in Azure's order (`odata.*` first, PartitionKey, RowKey, Timestamp,
/// then the properties in the entity's order, each annotation just before its value), no white
/// space, DateTime values and the Timestamp with trailing zeros trimmed. Doubles are Swift's
/// shortest round-tripping form with .NET's exponent spelling (`5E-324`, `1.7976931348623157E+308`):
/// the same number, but where .NET Framework printed fifteen digits (`4.94065645841247E-324`) the
/// text differs; readers compare numbers, not text.
package struct TableJSONWriter: Sendable {
    package var endpoint: TableEndpoint
    package var metadata: JSONMetadata

    package init(endpoint: TableEndpoint, metadata: JSONMetadata) {
        self.endpoint = endpoint
        self.metadata = metadata
    }

    /// A page of Query Entities: `{"odata.metadata":"…/$metadata#<table>","value":[…]}`
    /// (`{"value":[…]}` without metadata). Continuation goes in headers, never in the body.
    /// `select` is the query's `$select`, nil for every property (see ``appendEntityMembers(_:table:select:to:)``).
    package func queryResponse(_ entities: some Sequence<Entity>, table: String, select: [String]? = nil) -> [UInt8] {
        var body: [UInt8] = []
        queryResponse(entities, table: table, select: select) { body += $0 }
        return body
    }

    /// The same response, handed to `write` in pieces of some tens of KB as it is made: a server
    /// copies each into its network buffer while it is in cache, instead of growing an array of a
    /// megabyte or two (a page of 1,000 entities) and copying it whole.
    package func queryResponse(
        _ entities: some Sequence<Entity>,
        table: String,
        select: [String]? = nil,
        write: ([UInt8]) -> Void
    ) {
        feed(fragment: table, entities, write: write) { entity, out in
            appendEntityMembers(entity, table: table, select: select, to: &out)
        }
    }

    /// ``queryResponse(_:table:select:write:)`` of entities as stored, their properties copied through
    /// in the wire's spelling (``JSONWireSpelling``) rather than decoded and encoded again: the same
    /// bytes, for minimal or no metadata (full metadata annotates every property: use the entities).
    package func queryResponse(
        stored page: StoredEntityPage,
        table: String,
        write: ([UInt8]) -> Void
    ) throws(JSONSyntaxError) {
        write(feedOpening(fragment: table))
        var out: [UInt8] = []
        try appendStored(page, page.entries.indices, afterOthers: false, to: &out)
        out += Self.feedClosing
        write(out)
    }

    /// What a query page's body holds before its entities: `{"odata.metadata":"…","value":[`.
    package func feedOpening(fragment: String) -> [UInt8] {
        var out: [UInt8] = Array("{".utf8)
        if metadata != .none {
            appendMember("odata.metadata", endpoint.metadataURL(fragment), to: &out)
            out += ",".utf8
        }
        out += #""value":["#.utf8
        return out
    }

    /// What a query page's body holds after its entities.
    package static let feedClosing = Array("]}".utf8)

    /// The page's entities at `indices` as the items of a query page, comma-separated (with a comma
    /// first when `afterOthers`): pieces of one page may be written apart, on several threads, and
    /// joined.
    package func appendStored(
        _ page: StoredEntityPage,
        _ indices: Range<Int>,
        afterOthers: Bool,
        to out: inout [UInt8]
    ) throws(JSONSyntaxError) {
        precondition(metadata != .full, "full metadata is written from decoded entities")
        var spelling = JSONWireSpelling()
        let result = page.bytes.withUnsafeBytes { bytes in
            Result { () throws(JSONSyntaxError) in
                for index in indices {
                    let entry = page.entries[index]
                    if afterOthers || index != indices.lowerBound { out += ",".utf8 }
                    out += "{".utf8
                    if metadata != .none {
                        if let etag = entry.etag {
                            out += #""odata.etag":"#.utf8
                            JSONEntityWriter.appendString(utf8: UnsafeRawBufferPointer(rebasing: bytes[etag]), to: &out)
                            out += ",".utf8
                        } else if let timestamp = entry.timestamp {
                            appendMember("odata.etag", TableETag.weak(timestamp), to: &out)
                            out += ",".utf8
                        }
                    }
                    out += #""PartitionKey":"#.utf8
                    JSONEntityWriter.appendString(
                        utf8: UnsafeRawBufferPointer(rebasing: bytes[entry.partitionKey]),
                        to: &out
                    )
                    out += #","RowKey":"#.utf8
                    JSONEntityWriter.appendString(utf8: UnsafeRawBufferPointer(rebasing: bytes[entry.rowKey]), to: &out)
                    if let text = entry.timestampText {
                        out += #","Timestamp":""#.utf8
                        EdmDateTime.appendLexicalForm(
                            ofParsed: UnsafeRawBufferPointer(rebasing: bytes[text]),
                            to: &out,
                            trimmed: true
                        )
                        out += "\"".utf8
                    } else if let timestamp = entry.timestamp {
                        out += #","Timestamp":""#.utf8
                        timestamp.append(to: &out, trimmed: true)
                        out += "\"".utf8
                    }
                    try spelling.appendMembers(
                        ofObject: UnsafeRawBufferPointer(rebasing: bytes[entry.properties]),
                        annotated: metadata != .none,
                        to: &out
                    )
                    out += "}".utf8
                }
            }
        }
        try result.get()
    }

    /// One entity, as a GET by keys and an insert's 201 answer it: a bare object, with
    /// `"odata.metadata":"…/$metadata#<table>/@Element"` unless without metadata.
    package func entityResponse(_ entity: Entity, table: String, select: [String]? = nil) -> [UInt8] {
        var out: [UInt8] = Array("{".utf8)
        if metadata != .none {
            appendMember("odata.metadata", endpoint.metadataURL(table + "/@Element"), to: &out)
            out += ",".utf8
        }
        appendEntityMembers(entity, table: table, select: select, to: &out)
        out += "}".utf8
        return out
    }

    /// Query Tables: `{"odata.metadata":"…/$metadata#Tables","value":[{"TableName":"…"},…]}`.
    package func tablesResponse(_ names: some Sequence<String>) -> [UInt8] {
        feed(fragment: "Tables", names) { name, out in appendTableMembers(name, to: &out) }
    }

    /// `{"odata.metadata":"…/$metadata#<fragment>","value":[{…},…]}`, each item's members by `members`.
    private func feed<Item>(
        fragment: String,
        _ items: some Sequence<Item>,
        members: (Item, inout [UInt8]) -> Void
    ) -> [UInt8] {
        var body: [UInt8] = []
        feed(fragment: fragment, items, write: { body += $0 }, members: members)
        return body
    }

    /// ``feed(fragment:_:members:)`` in pieces of about `pieceSize` bytes.
    private func feed<Item>(
        fragment: String,
        _ items: some Sequence<Item>,
        write: ([UInt8]) -> Void,
        members: (Item, inout [UInt8]) -> Void
    ) {
        let pieceSize = 32 << 10
        var out = feedOpening(fragment: fragment)
        out.reserveCapacity(pieceSize + 4096)
        var first = true
        for item in items {
            if !first { out += ",".utf8 }
            first = false
            out += "{".utf8
            members(item, &out)
            out += "}".utf8
            if out.count >= pieceSize {
                write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        out += Self.feedClosing
        write(out)
    }

    /// Create Table's 201: `{"odata.metadata":"…/$metadata#Tables/@Element","TableName":"…"}`.
    package func tableResponse(_ name: String) -> [UInt8] {
        var out: [UInt8] = Array("{".utf8)
        if metadata != .none {
            appendMember("odata.metadata", endpoint.metadataURL("Tables/@Element"), to: &out)
            out += ",".utf8
        }
        appendTableMembers(name, to: &out)
        out += "}".utf8
        return out
    }

    private func appendTableMembers(_ name: String, to out: inout [UInt8]) {
        if metadata == .full {
            let path = TableResourcePath.table(name)
            appendMember("odata.type", endpoint.account + ".Tables", to: &out)
            out += ",".utf8
            appendMember("odata.id", path.url(endpoint: endpoint.url), to: &out)
            out += ",".utf8
            appendMember("odata.editLink", path.segment, to: &out)
            out += ",".utf8
        }
        appendMember("TableName", name, to: &out)
    }

    /// The members of one entity object, without its braces. With `select` (a query's `$select`),
    /// only the listed properties are written, PartitionKey, RowKey and Timestamp included only when
    /// listed, a listed property the entity lacks as `null` (as Azure answers); the metadata stays.
    func appendEntityMembers(_ entity: Entity, table: String, select: [String]? = nil, to out: inout [UInt8]) {
        var first = true
        func separate() {
            if !first { out += ",".utf8 }
            first = false
        }
        func wanted(_ name: String) -> Bool { select?.contains(name) ?? true }
        let path = TableResourcePath.entity(table: table, partitionKey: entity.partitionKey, rowKey: entity.rowKey)
        if metadata == .full {
            separate()
            appendMember("odata.type", endpoint.account + "." + table, to: &out)
            out += ",".utf8
            appendMember("odata.id", path.url(endpoint: endpoint.url), to: &out)
        }
        if metadata != .none, let etag = TableETag.of(entity) {
            separate()
            appendMember("odata.etag", etag, to: &out)
        }
        if metadata == .full {
            separate()
            appendMember("odata.editLink", path.segment, to: &out)
        }
        if wanted("PartitionKey") {
            separate()
            appendMember("PartitionKey", entity.partitionKey, to: &out)
        }
        if wanted("RowKey") {
            separate()
            appendMember("RowKey", entity.rowKey, to: &out)
        }
        if let timestamp = entity.timestamp, wanted("Timestamp") {
            separate()
            if metadata == .full { out += #""Timestamp@odata.type":"Edm.DateTime","#.utf8 }
            out += #""Timestamp":""#.utf8
            timestamp.append(to: &out, trimmed: true)
            out += "\"".utf8
        }
        for property in entity.properties where wanted(property.name) {
            separate()
            JSONEntityWriter.appendPropertyHead(property.name, of: property.value, metadata: metadata, to: &out)
            Self.appendValue(property.value, to: &out)
        }
        for name in select ?? [] where !["PartitionKey", "RowKey", "Timestamp"].contains(name) && entity[name] == nil {
            separate()
            JSONEntityWriter.appendString(name, to: &out)
            out += ":null".utf8
        }
    }

    /// A value as Azure writes it on the wire (see the type's notes on DateTime and Double).
    static func appendValue(_ value: EdmValue, to out: inout [UInt8]) {
        switch value {
        case .dateTime(let time):
            out += "\"".utf8
            time.append(to: &out, trimmed: true)
            out += "\"".utf8
        case .double(let number) where number.isFinite:
            out += dotNetDouble(number).utf8
        default:
            JSONEntityWriter.appendValue(value, to: &out)
        }
    }

    /// `5e-324` → `5E-324`, `1e+16` → `1E+16`: .NET's exponent spelling, which Azure writes.
    static func dotNetDouble(_ number: Double) -> String {
        let text = EdmValue.lexical(number)
        guard let e = text.firstIndex(of: "e") else { return text }
        let exponent = text[text.index(after: e)...]
        return text[..<e] + "E" + (exponent.hasPrefix("-") || exponent.hasPrefix("+") ? exponent : "+" + exponent)
    }

    private func appendMember(_ name: String, _ value: String, to out: inout [UInt8]) {
        JSONEntityWriter.appendString(name, to: &out)
        out += ":".utf8
        JSONEntityWriter.appendString(value, to: &out)
    }
}
