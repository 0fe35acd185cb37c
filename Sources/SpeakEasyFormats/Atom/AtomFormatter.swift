internal import CLibXML2
import SpeakEasyCore
package import SpeakEasyModel

/// Writes entities as an Azure Table OData Atom feed, the way the service answers a query (as in
/// the recorded `Tests/Fixtures/azure/table-atom-query-entities-feed.xml`), in the markup libxml2's
/// `xmlTextWriter` writes (``AtomMarkupWriter``, held to it byte for byte).
///
/// Every property carries `m:type` except strings; DateTime is written with 7 fractional digits, or
/// as the service serves it with trailing zeros trimmed (``Options/trimsDateTimes``), and Double as
/// ``EdmValue/lexical(_:)`` gives it (`NaN`, `Infinity`, `-Infinity`, `10.0`, `5e-324`), which the
/// reader (and every SDK) accepts. PartitionKey, RowKey and the Timestamp (when known) come first, as
/// the service writes them. The writer escapes `< > &` and writes CR as `&#13;`, so a value survives
/// a round trip byte for byte; what XML cannot hold at all is refused (``XMLCharacters``).
///
/// Every `<updated>`, the feed's and each entry's, is ``Options/updated``: by default the time of
/// writing in whole seconds, written as Azure writes it (`2026-03-01T18:30:05Z`), since Azure puts
/// the time of its response there, in every entry too (the entity's time is its Timestamp property).
/// Pass a fixed time for output that does not depend on the clock. Each call appends only complete pieces (the feed's
/// opening, one whole entry, the closing), and an entity that cannot be written appends nothing.
/// Copies of a formatter share one writer.
package struct AtomFormatter: EntityFormatter {
    package struct Options: Sendable {
        /// The table the entities belong to: the feed's title, and part of each entry's id and link.
        package var table: String
        /// The storage account's name, for the category term `account.table`.
        package var account: String
        /// The table endpoint the ids are relative to (`xml:base`), ending in `/`. The default is the
        /// local account's, where `serve` answers for it, since the data did not come from a real endpoint.
        package var baseURL: String
        /// Every `<updated>`: the feed's and each entry's. Written in whole seconds.
        package var updated: EdmDateTime
        /// Indent with two spaces, one element a line, as the service does (text is never re-flowed).
        package var indent: Bool
        /// Write DateTime values and the Timestamp as Azure serves them, trailing fractional zeros
        /// trimmed (`…:00Z`, `….2Z`), as `serve` must; a file keeps all seven digits.
        package var trimsDateTimes: Bool

        package init(
            table: String = "events",
            account: String = LocalAccount.name,
            baseURL: String = LocalAccount.tableEndpoint,
            updated: EdmDateTime = .now(),
            indent: Bool = true,
            trimsDateTimes: Bool = false
        ) {
            self.table = table
            self.account = account
            self.baseURL = baseURL
            self.updated = updated
            self.indent = indent
            self.trimsDateTimes = trimsDateTimes
        }
    }

    package let options: Options
    private let writer: SharedMarkup

    /// ``Options/updated`` as Azure writes it: whole seconds, no fraction.
    private let updatedText: String

    package init(options: Options = Options()) {
        self.options = options
        writer = SharedMarkup(AtomMarkupWriter(indent: options.indent))
        let ticks = options.updated.ticks
        updatedText = EdmDateTime(uncheckedTicks: ticks - ticks % EdmDateTime.ticksPerSecond).formattedTrimmed()
    }

    package mutating func begin(into out: inout [UInt8]) {
        writer.markup.startDocument()
        writer.markup.startElement("feed")
        writer.markup.attribute("xml:base", options.baseURL)
        writer.markup.attribute("xmlns", AtomNamespace.atom.description)
        writer.markup.attribute("xmlns:d", AtomNamespace.data.description)
        writer.markup.attribute("xmlns:m", AtomNamespace.metadata.description)
        writer.markup.element("title", attributes: [("type", "text")], text: options.table)
        writer.markup.element("id", text: options.baseURL + options.table)
        writer.markup.element("updated", text: updatedText)
        writer.markup.element("link", attributes: [("rel", "self"), ("title", options.table), ("href", options.table)])
        writer.markup.flush(into: &out)
    }

    package mutating func append(_ entity: Entity, into out: inout [UInt8]) throws(FormatError) {
        try check(entity)
        let path =
            "\(options.table)(PartitionKey='\(Self.keyLiteral(entity.partitionKey))',RowKey='\(Self.keyLiteral(entity.rowKey))')"
        writer.markup.startElement("entry")
        if let etag = entity.etag { writer.markup.attribute("m:etag", etag) }
        writer.markup.element("id", text: options.baseURL + path)
        writer.markup.element("title", attributes: [("type", "text")], text: "")
        writer.markup.element("updated", text: updatedText)
        writer.markup.startElement("author")
        writer.markup.element("name")
        writer.markup.endElement()
        writer.markup.element("link", attributes: [("rel", "edit"), ("title", options.table), ("href", path)])
        writer.markup.element(
            "category",
            attributes: [("term", options.account + "." + options.table), ("scheme", AtomNamespace.scheme.description)]
        )
        writer.markup.startElement("content")
        writer.markup.attribute("type", "application/xml")
        writer.markup.startElement("m:properties")
        writer.markup.element("d:PartitionKey", text: entity.partitionKey)
        writer.markup.element("d:RowKey", text: entity.rowKey)
        if let timestamp = entity.timestamp {
            writer.markup.element(
                "d:Timestamp",
                attributes: [("m:type", EdmType.dateTime.rawValue)],
                text: text(of: timestamp)
            )
        }
        for property in entity.properties {
            let type = property.value.type
            let text =
                if case .dateTime(let time) = property.value { text(of: time) } else { property.value.description }
            writer.markup.element(
                "d:" + property.name,
                attributes: type == .string ? [] : [("m:type", type.rawValue)],
                text: text
            )
        }
        writer.markup.endElement()  // m:properties
        writer.markup.endElement()  // content
        writer.markup.endElement()  // entry
        writer.markup.flush(into: &out)
    }

    package mutating func end(into out: inout [UInt8]) {
        writer.markup.endDocument()
        writer.markup.flush(into: &out)
    }

    private func text(of time: EdmDateTime) -> String {
        options.trimsDateTimes ? time.formattedTrimmed() : time.description
    }

    /// Everything that could make the entry unwritable, checked before a byte of it is written.
    private func check(_ entity: Entity) throws(FormatError) {
        let keys = (partitionKey: entity.partitionKey, rowKey: entity.rowKey)
        func fail(_ reason: String) -> FormatError {
            FormatError(source: "Atom output", keys: keys, reason: reason, kind: .malformedInput)
        }
        func checkText(_ text: String, _ what: @autoclosure () -> String) throws(FormatError) {
            if let scalar = XMLCharacters.firstForbidden(in: text) {
                throw fail(
                    "\(what()) contains U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)), which XML 1.0 (and so Atom) cannot represent"
                )
            }
        }
        try checkText(entity.partitionKey, "the PartitionKey")
        try checkText(entity.rowKey, "the RowKey")
        if let etag = entity.etag { try checkText(etag, "the ETag") }
        for property in entity.properties {
            guard XMLCharacters.isElementName(property.name) else {
                throw fail("property name '\(property.name)' is not a valid XML element name, so Atom cannot carry it")
            }
            guard property.name != "PartitionKey", property.name != "RowKey", property.name != "Timestamp" else {
                throw fail(
                    "a property may not be named \(property.name): Atom carries the entity's own \(property.name) under that name"
                )
            }
            if case .string(let text) = property.value { try checkText(text, "property \(property.name)") }
        }
    }

    /// A key as it appears in `table(PartitionKey='…',RowKey='…')`: OData doubles a quote, and the
    /// characters a URL path cannot hold are percent-encoded, as the service does.
    package static func keyLiteral(_ key: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(key.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "'"):
                out += [byte, byte]
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.append(byte)
            case _ where Array("-._~!$&()*+,;=:@".utf8).contains(byte):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// The formatter's markup writer, in a box: one access to it a call, and copies of the formatter share
/// it. (Held in the formatter directly, Swift 6.3's debug build crashed destroying a formatter whose
/// `append` had thrown: `swift_release` of a bad pointer in "outlined destroy of AtomFormatter".)
private final class SharedMarkup {
    var markup: AtomMarkupWriter
    init(_ markup: AtomMarkupWriter) { self.markup = markup }
}
