package import SpeakEasyModel

/// Writes entities as Azure Table JSON, exactly as the service writes a query response: a feed
/// `{"odata.metadata":"…$metadata#table","value":[…]}` at any metadata level, or NDJSON (one entity
/// object per line, same annotations).
///
/// Member order follows the service: (fullmetadata: `odata.type`, `odata.id`), `odata.etag`,
/// (`odata.editLink`), `PartitionKey`, `RowKey`, `Timestamp`, then the properties in their order.
package struct JSONFormatter: EntityFormatter {
    package enum Layout: Sendable {
        case feed
        case lines

        /// What goes before an entity's object, after `written` others: a comma in a feed.
        func appendSeparator(after written: Int, to out: inout [UInt8]) {
            if self == .feed, written > 0 { out.append(UInt8(ascii: ",")) }
        }

        /// What goes after an entity's object: a line break in lines.
        func appendTerminator(to out: inout [UInt8]) {
            if self == .lines { out.append(0x0A) }
        }
    }

    package var metadata: JSONMetadata
    package var layout: Layout
    /// The table the entities belong to, for `odata.metadata`, `odata.type` and the entity links.
    package var table: String
    /// The table service's base URL, for `odata.metadata` and `odata.id`.
    package var serviceURL: String
    /// The account name, for `odata.type` (`account.table`).
    package var accountName: String
    private var count = 0
    /// The last entity's property names that passed ``checkWritable(_:_:)``, by position: the entities
    /// of a file mostly share their names, and comparing two equal names costs less than scanning one
    /// (the scan was 3.8% of CSV to JSON, perf).
    private var checkedNames: [String] = []

    package init(
        metadata: JSONMetadata = .minimal,
        layout: Layout = .feed,
        table: String = DataContract.table,
        serviceURL: String = LocalAccount.tableEndpoint,
        accountName: String = LocalAccount.name
    ) {
        self.metadata = metadata
        self.layout = layout
        self.table = table
        self.serviceURL = serviceURL
        self.accountName = accountName
    }

    package mutating func begin(into out: inout [UInt8]) {
        guard layout == .feed else { return }
        out.append(contentsOf: "{".utf8)
        if metadata != .none {
            JSONEntityWriter.appendString("odata.metadata", to: &out)
            out.append(UInt8(ascii: ":"))
            JSONEntityWriter.appendString(serviceURL + "$metadata#" + table, to: &out)
            out.append(UInt8(ascii: ","))
        }
        out.append(contentsOf: "\"value\":[".utf8)
    }

    package mutating func append(_ entity: Entity, into out: inout [UInt8]) throws(FormatError) {
        layout.appendSeparator(after: count, to: &out)
        count += 1
        try appendObject(entity, into: &out)
        layout.appendTerminator(to: &out)
    }

    /// Appends what goes before a page of entities already formatted as this formatter writes them
    /// (``JSONPageCopier``), and counts them: the page's bytes go next, where the caller writes them
    /// (a page is a megabyte or two, written as it is rather than copied into a buffer).
    package mutating func appendSeparator(before page: JSONFormattedPage, into out: inout [UInt8]) {
        guard page.count > 0 else { return }
        layout.appendSeparator(after: count, to: &out)
        count += page.count
    }

    /// Appends the entity's object alone, with no separator before or after it.
    mutating func appendObject(_ entity: Entity, into out: inout [UInt8]) throws(FormatError) {
        out.append(UInt8(ascii: "{"))
        if metadata == .full {
            member("odata.type", accountName + "." + table, &out)
            member("odata.id", serviceURL + Self.entityPath(table: table, entity), &out)
        }
        if metadata != .none, let etag = entity.etag { member("odata.etag", etag, &out) }
        if metadata == .full { member("odata.editLink", Self.entityPath(table: table, entity), &out) }
        member("PartitionKey", entity.partitionKey, &out)
        JSONEntityWriter.appendProperty(Property("RowKey", .string(entity.rowKey)), metadata: .none, to: &out)
        if let timestamp = entity.timestamp {
            // The service annotates Timestamp only at full metadata.
            out.append(UInt8(ascii: ","))
            JSONEntityWriter.appendProperty(
                Property("Timestamp", .dateTime(timestamp)),
                metadata: metadata == .full ? .full : .none,
                to: &out
            )
        }
        if checkedNames.isEmpty { checkedNames.reserveCapacity(entity.properties.count) }
        for (index, property) in entity.properties.enumerated() {
            if index == checkedNames.count {
                try Self.checkWritable(property, entity)
                checkedNames.append(property.name)
            } else if checkedNames[index] != property.name {
                try Self.checkWritable(property, entity)
                checkedNames[index] = property.name
            }
            out.append(UInt8(ascii: ","))
            JSONEntityWriter.appendProperty(property, metadata: metadata, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A name with '@' or in odata.'s namespace reads back as an annotation, which every reader skips
    /// (found by Fuzz/run csv: a CSV column 't@Aype' vanished on the way through JSON).
    private static func checkWritable(_ property: Property, _ entity: Entity) throws(FormatError) {
        guard property.name.utf8.contains(UInt8(ascii: "@")) || property.name.hasPrefix("odata.") else { return }
        throw FormatError(
            source: "JSON",
            keys: (entity.partitionKey, entity.rowKey),
            reason:
                "the property name '\(property.name)' cannot be written to JSON: names with '@' or starting 'odata.' are annotations there"
        )
    }

    package mutating func end(into out: inout [UInt8]) {
        guard layout == .feed else { return }
        out.append(contentsOf: "]}\n".utf8)
    }

    /// `"name":"value",`
    private func member(_ name: String, _ value: String, _ out: inout [UInt8]) {
        JSONEntityWriter.appendString(name, to: &out)
        out.append(UInt8(ascii: ":"))
        JSONEntityWriter.appendString(value, to: &out)
        out.append(UInt8(ascii: ","))
    }

    /// `table(PartitionKey='…',RowKey='…')`, quotes in keys doubled as OData key literals need.
    static func entityPath(table: String, _ entity: Entity) -> String {
        func literal(_ key: String) -> String { "'" + key.replacing("'", with: "''") + "'" }
        return table + "(PartitionKey=" + literal(entity.partitionKey) + ",RowKey=" + literal(entity.rowKey) + ")"
    }
}
