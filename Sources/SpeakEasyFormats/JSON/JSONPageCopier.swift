import SpeakEasyCore
package import SpeakEasyModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A page of Azure's Query Entities reply written as a ``JSONFormatter`` writes its entities, by
/// copying each entity's members where the reply already spells them as the formatter would: what
/// lets `export --store … --to x.json` from a remote account scan each page once, instead of
/// decoding every entity into values and encoding it again (a third and a sixth of export's CPU,
/// perf).
///
/// The copy is taken only where it is the formatter's output byte for byte: a minimal-metadata
/// object whose members come in the formatter's order (`odata.etag`, `PartitionKey`, `RowKey`,
/// `Timestamp`, then the properties), with plain ASCII names, string values, and each DateTime's
/// annotation just before its value. Dates are written again with seven fractional digits (Azure
/// trims them); escaped strings are escaped again the writer's way. Any other object (a number, a
/// null, an annotation elsewhere, a name the writer refuses) is decoded and formatted alone. An object
/// that Azure spelled as the formatter writes it, the usual one, is copied in one pass
/// (``JSONReplyCopy``); the others are read into a member list first. A page the copy cannot read
/// is decoded whole by the caller's reader, so that its errors are that reader's own; the tests hold
/// every path to the decoder's and formatter's bytes.
package struct JSONPageCopier {
    private var formatter: JSONFormatter
    private var members: [JSONMember] = []
    /// The property names of the object being copied, for the check that none repeats.
    private var propertyNames: [Name] = []
    /// The same, for ``JSONReplyCopy``.
    private var spelledNames: [Range<Int>] = []
    private var decoder = JSONEntityDecoder(mode: .entity)

    package init(formatter: JSONFormatter) { self.formatter = formatter }

    /// The page's entities as the formatter writes them, and their keys. `decode` reads a body the
    /// copy cannot (its errors are the ones thrown); the formatter's own errors are thrown as it
    /// throws them, after the page has been decoded.
    package mutating func copy(
        page body: [UInt8],
        decode: ([UInt8]) throws -> [Entity]
    ) throws -> JSONFormattedPage {
        var page = JSONFormattedPage()
        if formatter.metadata == .minimal {
            page.bytes.reserveCapacity(body.count + body.count / 8)
            if body.withUnsafeBytes({ copyEntities(of: $0, into: &page) }) { return page }
            page = JSONFormattedPage()
        }
        for entity in try decode(body) { try append(entity, to: &page) }
        return page
    }

    /// Copies the feed's entities into `page`; false when it is not read to its end that way.
    private mutating func copyEntities(of bytes: UnsafeRawBufferPointer, into page: inout JSONFormattedPage) -> Bool {
        var scanner = JSONObjectScanner(bytes)
        do {
            try scanner.expect(UInt8(ascii: "{"))
            var name = try Self.memberName(&scanner, bytes)
            if name == Self.metadataName {
                guard try scanner.peek() == UInt8(ascii: "\""), case .plain = try scanner.string() else { return false }
                try scanner.expect(UInt8(ascii: ","))
                name = try Self.memberName(&scanner, bytes)
            }
            guard name == Self.valueName else { return false }
            try scanner.expect(UInt8(ascii: "["))
            if try !scanner.consume(UInt8(ascii: "]")) {
                repeat {
                    guard try scanner.peek() == UInt8(ascii: "{") else { return false }
                    let start = scanner.position
                    if let end = appendSpelled(bytes, at: start, to: &page) {
                        guard end - start <= JSONEntityStreamReader.maximumObjectSize else { return false }
                        scanner.skip(to: end)
                        continue
                    }
                    try scanner.scanObject(into: &members)
                    guard scanner.position - start <= JSONEntityStreamReader.maximumObjectSize else { return false }
                    if !appendCopy(bytes, to: &page) {
                        var again = JSONObjectScanner(bytes, position: start)
                        try append(try decoder.entity(&again), to: &page)
                    }
                } while try scanner.consume(UInt8(ascii: ","))
                try scanner.expect(UInt8(ascii: "]"))
            }
            try scanner.expect(UInt8(ascii: "}"))
            return try scanner.peek() == nil
        } catch {
            return false
        }
    }

    /// A member name of the envelope and its colon; an escaped name is none the copy knows.
    private static func memberName(_ scanner: inout JSONObjectScanner, _ bytes: UnsafeRawBufferPointer) throws -> Name {
        guard try scanner.peek() == UInt8(ascii: "\"") else { return Name() }
        let text = try scanner.string()
        try scanner.expect(UInt8(ascii: ":"))
        guard case .plain(let range, let ascii) = text else { return Name() }
        return Name(UnsafeRawBufferPointer(rebasing: bytes[range]), ascii: ascii)
    }

    /// Appends an entity decoded from the page, as the formatter writes it.
    private mutating func append(_ entity: Entity, to page: inout JSONFormattedPage) throws(FormatError) {
        page.decoded += 1
        page.beginEntity(formatter.layout)
        try formatter.appendObject(entity, into: &page.bytes)
        page.endEntity(formatter.layout, keys: .decoded(entity.partitionKey, entity.rowKey))
    }

    // MARK: - The copy

    /// Appends the object at `start` as the formatter writes it, in one pass (``JSONReplyCopy``); where
    /// it ends, or nil, with nothing appended, for an object the member list must read.
    private mutating func appendSpelled(
        _ bytes: UnsafeRawBufferPointer,
        at start: Int,
        to page: inout JSONFormattedPage
    ) -> Int? {
        let written = page.bytes.count
        page.beginEntity(formatter.layout)
        guard let copied = JSONReplyCopy.append(bytes, at: start, names: &spelledNames, to: &page.bytes) else {
            page.bytes.removeSubrange(written...)
            return nil
        }
        page.endEntity(formatter.layout, keys: .written(copied.partitionKey, copied.rowKey))
        return copied.end
    }

    /// Appends the object just scanned as the formatter writes it; false, with nothing appended,
    /// when only decoding it can say what the formatter would write.
    private mutating func appendCopy(_ bytes: UnsafeRawBufferPointer, to page: inout JSONFormattedPage) -> Bool {
        let start = page.bytes.count
        page.beginEntity(formatter.layout)
        guard let keys = Self.appendObject(members, bytes, &propertyNames, to: &page.bytes) else {
            page.bytes.removeSubrange(start...)
            return false
        }
        page.endEntity(formatter.layout, keys: keys)
        return true
    }

    /// The object's members in the formatter's spelling, and where its keys are; nil when they are
    /// not all of the shapes the copy knows (some bytes may have been appended then).
    private static func appendObject(
        _ members: [JSONMember],
        _ bytes: UnsafeRawBufferPointer,
        _ propertyNames: inout [Name],
        to out: inout [UInt8]
    ) -> JSONFormattedPage.Keys? {
        func name(_ index: Int) -> Name {
            guard index < members.count, case .plain(let range, let ascii) = members[index].key else { return Name() }
            return Name(UnsafeRawBufferPointer(rebasing: bytes[range]), ascii: ascii)
        }
        var index = 0
        out.append(UInt8(ascii: "{"))
        if name(0) == etagName {
            guard case .string(let etag) = members[0].value else { return nil }
            append(#""odata.etag":"#, to: &out)
            guard appendString(etag, bytes, to: &out) else { return nil }
            out.append(UInt8(ascii: ","))
            index = 1
        }
        guard name(index) == partitionKeyName, name(index + 1) == rowKeyName,
            case .string(let partitionText) = members[index].value,
            case .string(let rowText) = members[index + 1].value
        else { return nil }
        append(#""PartitionKey":"#, to: &out)
        let partitionStart = out.count + 1
        guard appendString(partitionText, bytes, to: &out) else { return nil }
        let partitionKey = partitionStart..<out.count - 1
        append(#","RowKey":"#, to: &out)
        let rowStart = out.count + 1
        guard appendString(rowText, bytes, to: &out) else { return nil }
        let rowKey = rowStart..<out.count - 1
        index += 2
        if name(index) == timestampName {
            append(#","Timestamp":"#, to: &out)
            guard appendDateTime(members[index].value, bytes, to: &out) else { return nil }
            index += 1
        }
        propertyNames.removeAll(keepingCapacity: true)
        // Plain properties in a row, spelled in the reply as the formatter spells them (no space
        // around the colon or the comma), are copied as one run of the reply's bytes.
        var run = MemberRun()
        while index < members.count {
            let property = name(index)
            guard property.bytes != nil else { return nil }
            if case .plain(let key, _) = members[index].key,
                case .string(.plain(let value, let ascii)) = members[index].value,
                value.lowerBound == key.upperBound + 3, property.annotated == nil
            {
                guard property.isProperty,
                    ascii || UTF8Text.isValid(UnsafeRawBufferPointer(rebasing: bytes[value]))
                else { return nil }
                run.add((key.lowerBound - 1)..<(value.upperBound + 1), from: bytes, to: &out)
                propertyNames.append(property)
                index += 1
                continue
            }
            run.end(from: bytes, to: &out)
            append(#",""#, to: &out)
            out.append(contentsOf: property.bytes!)
            if let annotated = property.annotated {
                // Only a DateTime's annotation, just before its value, as the formatter writes it.
                guard case .string(.plain(let type, _)) = members[index].value,
                    Name(UnsafeRawBufferPointer(rebasing: bytes[type])) == dateTimeName,
                    name(index + 1) == annotated, annotated.isProperty
                else { return nil }
                append(#"":"Edm.DateTime",""#, to: &out)
                out.append(contentsOf: annotated.bytes!)
                append(#"":"#, to: &out)
                guard appendDateTime(members[index + 1].value, bytes, to: &out) else { return nil }
                propertyNames.append(annotated)
                index += 2
            } else {
                guard property.isProperty, case .string(let text) = members[index].value else { return nil }
                append(#"":"#, to: &out)
                guard appendString(text, bytes, to: &out) else { return nil }
                propertyNames.append(property)
                index += 1
            }
        }
        run.end(from: bytes, to: &out)
        guard areDistinct(propertyNames) else { return nil }
        out.append(UInt8(ascii: "}"))
        // A plain key is written as it is, its text the key; an escaped one is escaped again.
        switch (partitionText, rowText) {
        case (.plain, .plain): return .written(partitionKey, rowKey)
        default:
            func text(_ text: JSONMember.Text, _ written: Range<Int>) -> String {
                if case .escaped(let string) = text { return string }
                return String(decoding: out[written], as: UTF8.self)
            }
            return .decoded(text(partitionText, partitionKey), text(rowText, rowKey))
        }
    }

    private static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A string value as the writer spells it: a plain one as it is (it has nothing the writer
    /// escapes), once it is known to be UTF-8; an escaped one escaped again.
    private static func appendString(
        _ text: JSONMember.Text,
        _ bytes: UnsafeRawBufferPointer,
        to out: inout [UInt8]
    ) -> Bool {
        switch text {
        case .plain(let range, let ascii):
            let raw = UnsafeRawBufferPointer(rebasing: bytes[range])
            guard ascii || UTF8Text.isValid(raw) else { return false }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: raw)
            out.append(UInt8(ascii: "\""))
        case .escaped(let string):
            JSONEntityWriter.appendString(string, to: &out)
        }
        return true
    }

    /// A DateTime with its seven fractional digits, when the value parses as the decoder parses it.
    private static func appendDateTime(
        _ value: JSONMember.Value,
        _ bytes: UnsafeRawBufferPointer,
        to out: inout [UInt8]
    ) -> Bool {
        guard case .string(.plain(let range, _)) = value else { return false }
        let text = UnsafeRawBufferPointer(rebasing: bytes[range])
        guard (try? EdmDateTime.parse(text)) != nil else { return false }
        out.append(UInt8(ascii: "\""))
        EdmDateTime.appendLexicalForm(ofParsed: text, to: &out, trimmed: false)
        out.append(UInt8(ascii: "\""))
        return true
    }

    /// Whether no property name repeats (a repeat is the decoder's error to report). Entities have
    /// few properties; more than a few dozen go to the decoder.
    private static func areDistinct(_ names: [Name]) -> Bool {
        guard names.count <= 32 else { return false }
        for i in names.indices {
            for j in 0..<i where names[j] == names[i] { return false }
        }
        return true
    }

    // MARK: - Names

    private static var metadataName: Name { Name("odata.metadata") }
    private static var valueName: Name { Name("value") }
    private static var etagName: Name { Name("odata.etag") }
    private static var partitionKeyName: Name { Name("PartitionKey") }
    private static var rowKeyName: Name { Name("RowKey") }
    private static var timestampName: Name { Name("Timestamp") }
    private static var dateTimeName: Name { Name("Edm.DateTime") }

    /// A plain ASCII member name's bytes, where they are; none for a name the copy does not take
    /// (escaped, or not ASCII), which equals no other.
    private struct Name: Equatable {
        private(set) var bytes: UnsafeRawBufferPointer?

        init() {}

        init(_ text: StaticString) {
            bytes = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        }

        init(_ raw: UnsafeRawBufferPointer) { bytes = raw }

        /// A name as the scanner found it: none unless ASCII. The scanner's flag may come from bytes it
        /// read past the name, so a name it flags is looked at again (a name is short).
        init(_ raw: UnsafeRawBufferPointer, ascii: Bool) {
            if ascii || !raw.contains(where: { $0 >= 0x80 }) { bytes = raw }
        }

        static func == (a: Name, b: Name) -> Bool {
            guard let a = a.bytes, let b = b.bytes, a.count == b.count else { return false }
            return a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
        }

        /// The property `Name@odata.type` annotates.
        var annotated: Name? {
            guard let bytes, let name = JSONTypeAnnotation.annotatedName(0..<bytes.count, in: bytes) else { return nil }
            return Name(UnsafeRawBufferPointer(rebasing: bytes[name]))
        }

        /// A name the decoder reads as a property and the formatter writes: not an annotation, not
        /// in `odata.`'s namespace, not a key or the Timestamp.
        var isProperty: Bool {
            guard let bytes else { return false }
            let odata = Name("odata.")
            return !bytes.contains(UInt8(ascii: "@"))
                && Name(UnsafeRawBufferPointer(rebasing: bytes.prefix(odata.bytes!.count))) != odata
                && self != JSONPageCopier.partitionKeyName && self != JSONPageCopier.rowKeyName
                && self != JSONPageCopier.timestampName
        }
    }
}

/// Entities formatted for the output, joined as the layout joins them, with each one's keys.
package struct JSONFormattedPage: Sendable {
    package var bytes: [UInt8] = []
    /// Each entity's keys. A scan asks for a few of a page's keys (``ParallelScan`` samples 32), so a
    /// key copied as it is stays where it was written, and becomes a String only when asked for. A
    /// String an entity was 10,000 of the 10,040 mallocs of `copy-json-page`, and 3% of its time.
    private var keys: [Keys] = []
    /// How many of the entities were decoded and formatted rather than copied.
    package internal(set) var decoded = 0

    /// Where an entity's PartitionKey and RowKey are.
    enum Keys {
        /// In ``bytes``, written as they are: valid UTF-8 that needed no escapes.
        case written(Range<Int>, Range<Int>)
        case decoded(String, String)
    }

    package var count: Int { keys.count }

    package func partitionKey(at index: Int) -> String {
        switch keys[index] {
        case .written(let range, _): String(decoding: bytes[range], as: UTF8.self)
        case .decoded(let key, _): key
        }
    }

    package func rowKey(at index: Int) -> String {
        switch keys[index] {
        case .written(_, let range): String(decoding: bytes[range], as: UTF8.self)
        case .decoded(_, let key): key
        }
    }

    mutating func beginEntity(_ layout: JSONFormatter.Layout) {
        layout.appendSeparator(after: count, to: &bytes)
    }

    mutating func endEntity(_ layout: JSONFormatter.Layout, keys: Keys) {
        layout.appendTerminator(to: &bytes)
        self.keys.append(keys)
    }
}
