package import SpeakEasyFormats
package import SpeakEasyModel

/// Writes the Table service's Atom response bodies, for the legacy azure-storage SDK (and any
/// client that asks for `application/atom+xml`): a feed of entities, one entry, the table list
/// and a created table.
///
/// Entities go through the Formats layer's ``AtomFormatter``, whose output is the recorded feed's
/// shape (`Tests/Fixtures/azure/table-atom-query-entities-feed.xml`); a single entity is that
/// writer's entry made the document's root, with the namespaces and `xml:base` a root needs, as
/// Azure answers a GET by keys or an insert. Entities without an ETag get the one their Timestamp
/// implies. DateTime values and the Timestamp are served as Azure serves them, trailing zeros
/// trimmed (the recording's `2012-11-10T03:04:05.2Z`), so a client tested against `serve` meets the
/// app's date bug (a date on a whole second comes as `…:00Z`) as it would against Azure.
package struct TableAtomWriter {
    package var endpoint: TableEndpoint
    /// The `<updated>` time, Azure's time of answering.
    package var updated: EdmDateTime

    package init(endpoint: TableEndpoint, updated: EdmDateTime = .now()) {
        self.endpoint = endpoint
        self.updated = updated
    }

    private func formatter(table: String) -> AtomFormatter {
        AtomFormatter(
            options: AtomFormatter.Options(
                table: table,
                account: endpoint.account,
                baseURL: endpoint.url + "/",
                updated: updated,
                indent: false,
                trimsDateTimes: true
            )
        )
    }

    private static func withETag(_ entity: Entity) -> Entity {
        var entity = entity
        entity.etag = TableETag.of(entity)
        return entity
    }

    /// A Query Entities page as an Atom feed.
    package func feed(_ entities: some Sequence<Entity>, table: String) throws(FormatError) -> [UInt8] {
        var formatter = formatter(table: table)
        var out: [UInt8] = []
        formatter.begin(into: &out)
        for entity in entities { try formatter.append(Self.withETag(entity), into: &out) }
        formatter.end(into: &out)
        return out
    }

    /// One entity as a root `<entry>` document.
    package func entry(_ entity: Entity, table: String) throws(FormatError) -> [UInt8] {
        var formatter = formatter(table: table)
        var feed: [UInt8] = []
        formatter.begin(into: &feed)
        var entry: [UInt8] = []
        try formatter.append(Self.withETag(entity), into: &entry)
        var text = String(decoding: entry, as: UTF8.self)
        if let start = text.firstRange(of: "<entry") {
            text = String(text[start.lowerBound...])
            text.replaceSubrange(
                start.lowerBound..<text.index(start.lowerBound, offsetBy: 6),
                with: "<entry" + rootAttributes
            )
        }
        return Array((Self.declaration + text).utf8)
    }

    /// Query Tables as an Atom feed: entries holding `<d:TableName>`.
    package func tablesFeed(_ names: some Sequence<String>) -> [UInt8] {
        var out = Self.declaration + "<feed" + rootAttributes + ">"
        out +=
            #"<title type="text">Tables</title><id>\#(XMLText.text(endpoint.url))/Tables</id><updated>\#(updated.formattedTrimmed())</updated>"#
        out += #"<link rel="self" title="Tables" href="Tables" />"#
        for name in names { out += "<entry>" + tableEntryBody(name) + "</entry>" }
        return Array((out + "</feed>").utf8)
    }

    /// Create Table's 201 as a root `<entry>`.
    package func tableEntry(_ name: String) -> [UInt8] {
        Array((Self.declaration + "<entry" + rootAttributes + ">" + tableEntryBody(name) + "</entry>").utf8)
    }

    private func tableEntryBody(_ name: String) -> String {
        let path = TableResourcePath.table(name)
        return
            #"<id>\#(XMLText.text(path.url(endpoint: endpoint.url)))</id><title type="text"></title><updated>\#(updated.formattedTrimmed())</updated>"#
            + #"<author><name /></author><link rel="edit" title="Tables" href="\#(XMLText.attribute(path.segment))" />"#
            + #"<category term="\#(XMLText.attribute(endpoint.account)).Tables" scheme="\#(AtomNamespace.scheme.description)" />"#
            + #"<content type="application/xml"><m:properties><d:TableName>\#(XMLText.text(name))</d:TableName></m:properties></content>"#
    }

    private static let declaration = #"<?xml version="1.0" encoding="utf-8" standalone="yes"?>"#

    private var rootAttributes: String {
        #" xml:base="\#(XMLText.attribute(endpoint.url))/""# + TableNameBody.namespaces
    }
}

/// The name a Create Table request body gives, in JSON (`{"TableName":"…"}`) or Atom
/// (`<d:TableName>…</d:TableName>`); 400 InvalidInput when there is none.
package enum TableNameBody {
    package static func read(_ body: [UInt8], contentType: String?) throws(TableServiceError) -> String {
        let type = contentType?.lowercased() ?? ""
        let name: String?
        if type.contains("xml") {
            name = XMLText.elementText("TableName", in: String(decoding: body, as: UTF8.self))
        } else {
            name = try? TableJSONReader.tableName(body)
        }
        guard let name, !name.isEmpty else { throw .invalidInput("The request body names no table.") }
        return name
    }

    /// The Atom body the legacy client sends to create `name`.
    package static func atom(_ name: String) -> [UInt8] {
        let text =
            #"<?xml version="1.0" encoding="utf-8" standalone="yes"?><entry"# + namespaces
            + #"><title /><updated>2000-01-01T00:00:00Z</updated><author><name /></author><id /><content type="application/xml">"#
            + #"<m:properties><d:TableName>\#(XMLText.text(name))</d:TableName></m:properties></content></entry>"#
        return Array(text.utf8)
    }

    /// The `d:`, `m:` and default (Atom) namespace declarations of a root element.
    static var namespaces: String {
        #" xmlns:d="\#(AtomNamespace.data.description)" xmlns:m="\#(AtomNamespace.metadata.description)""#
            + #" xmlns="\#(AtomNamespace.atom.description)""#
    }
}
