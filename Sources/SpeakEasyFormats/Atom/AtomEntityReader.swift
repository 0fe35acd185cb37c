internal import CLibXML2
package import SpeakEasyCore
package import SpeakEasyModel

/// Reads the entities of an Azure Table OData Atom feed (`<feed>` of `<entry>`s) or of a single
/// `<entry>` document, one at a time, with libxml2's streaming `xmlTextReader`.
///
/// Memory stays flat whatever the feed's size: libxml2 pulls the input through ``AtomInputPump`` in
/// bounded chunks and frees each node once the reader has moved past it; we hold one entity.
///
/// What an entry means (the Formats article's table; the recorded feeds in `Tests/Fixtures/azure`): `m:etag` on `<entry>` is the ETag; each child of
/// `<m:properties>` is a property, typed by `m:type` (none means `Edm.String`), absent when
/// `m:null="true"`; `d:PartitionKey`, `d:RowKey` and `d:Timestamp` are the keys and the store's
/// time. Strings keep their exact text, white space and line breaks included; values of the other
/// types are read as exactly as JSON and CSV read them: white space around a number or a date
/// (`" 5 "`, `" INF"`) is refused there, so it is here. Names are matched by namespace URI.
///
/// Safety: the parser never touches the network (`XML_PARSE_NONET`), never loads a DTD or substitutes
/// entities (no `DTDLOAD`/`DTDATTR`/`DTDVALID`/`NOENT`), and a document with any DOCTYPE is refused
/// before libxml2 reads it (``DoctypeScanner``) — which also rules out entity-expansion bombs.
/// libxml2's text-node limit (10 MB, no `XML_PARSE_HUGE`) bounds a single value.
///
/// Errors are ``FormatError``s (exit 65). Syntax errors carry libxml2's line and column; errors in a
/// value name the property, the entity's keys and the line of the property (libxml2 keeps no column
/// for a parsed node, and its parser runs ahead of the reader, so the parser's position would mislead).
package final class AtomEntityReader: StagedEntityReader {
    // The state below is touched for every node. A class's stored properties cost a runtime
    // exclusivity check on each access; a reader is owned by one caller and never shared (as with
    // CSVRecordScanner), so the checks are switched off.

    @exclusivity(unchecked) package private(set) var entityLine = 0

    private let pump: AtomInputPump
    private let reader: xmlTextReaderPtr
    private let source: String
    /// `entry` as interned in the reader's dictionary (``isEntry(_:)``).
    private let entryName: UnsafePointer<xmlChar>?
    /// Where the input starts in its file (a piece of a feed read on its own, ``AtomFeedSplitter``).
    private let origin: TextOrigin
    @exclusivity(unchecked) private var phase = Phase.prolog
    /// The node last read, and whether as its end tag (the reader visits elements twice).
    @exclusivity(unchecked) private var current: xmlNodePtr?
    @exclusivity(unchecked) private var isEndElement = false
    /// Set once a read failed: the nodes parsed before the error, handed out from the tree.
    @exclusivity(unchecked) private var replay: AtomTreeReplay?
    @exclusivity(unchecked) private var failure: FormatError?
    /// The previous entry's property count and value bytes: the next one is usually the same shape.
    @exclusivity(unchecked) private var expectedPropertyCount = 8
    @exclusivity(unchecked) private var expectedByteCount = 1024
    /// The namespaces the root element declares (see ``isNamespace(_:_:)-(xmlNsPtr,_)``).
    @exclusivity(unchecked) private var rootNamespaces: [(ns: xmlNsPtr, uri: UnsafePointer<UInt8>?)] = []
    @exclusivity(unchecked) private var names = AtomPropertyNames()

    private enum Phase { case prolog, feed, afterRootEntry, done }

    /// libxml2 options: no network; line numbers past 65,535 kept for text nodes. Deliberately absent:
    /// `NOENT`, `DTDLOAD`, `DTDATTR`, `DTDVALID` (entities and DTDs), `NOBLANKS` (it can drop white
    /// space that belongs to a string value, e.g. before a CDATA section), `HUGE` (no limit on a value).
    private static let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_COMPACT.rawValue
    )

    /// Reads from `input`; `chunkSize` is how many bytes are read from it at a time; `origin` is where
    /// the input starts in its file.
    package init(input: ByteInput, chunkSize: Int = 256 << 10, origin: TextOrigin = .start) {
        _ = AtomNamespace.libraryInitialised
        source = input.name
        self.origin = origin
        pump = AtomInputPump(input: input, chunkSize: chunkSize, origin: origin)
        let context = Unmanaged.passUnretained(pump).toOpaque()
        // Creating the reader already reads the input's first bytes.
        Self.routeErrors(to: context)
        defer { Self.routeErrors(to: nil) }
        guard let reader = xmlReaderForIO(AtomInputPump.readCallback, nil, context, nil, nil, Self.options) else {
            fatalError("libxml2 could not create a reader (out of memory)")
        }
        self.reader = reader
        entryName = xmlTextReaderConstString(reader, "entry")
        xmlTextReaderSetStructuredErrorHandler(reader, AtomInputPump.errorCallback, context)
    }

    deinit { xmlFreeTextReader(reader) }

    package func next() throws(FormatError) -> Entity? {
        try nextStaged()?.entity()
    }

    /// The next entity; `keysIfAbsent` stand in for keys an entry does not give (a request body
    /// sent to the entity's own URL, which may leave them out).
    package func next(keysIfAbsent: (partitionKey: String, rowKey: String)?) throws(FormatError) -> Entity? {
        guard let staged = try nextStaged() else { return nil }
        if let raw = staged as? AtomRawEntry { return try raw.entity(keysIfAbsent: keysIfAbsent) }
        return try staged.entity()
    }

    package func nextStaged() throws(FormatError) -> (any StagedEntity)? {
        if let failure { throw failure }
        Self.routeErrors(to: Unmanaged.passUnretained(pump).toOpaque())
        defer { Self.routeErrors(to: nil) }
        do {
            return try nextEntity()
        } catch {
            failure = error
            phase = .done
            throw error
        }
    }

    private func nextEntity() throws(FormatError) -> AtomRawEntry? {
        while true {
            switch phase {
            case .done:
                return nil
            case .prolog:
                guard try read() else { throw problem("the document has no root element", at: nil) }
                let node = current!
                let type = node.pointee.type
                if type == XML_DTD_NODE || type == XML_DOCUMENT_TYPE_NODE {
                    // Reached only when the byte screen could not see the DOCTYPE (a UTF-16 document).
                    throw FormatError(
                        source: source,
                        line: origin.line(Int(xmlTextReaderGetParserLineNumber(reader))),
                        reason: "DTDs are not allowed (a <!DOCTYPE> declaration); an Atom feed has none"
                    )
                }
                guard type == XML_ELEMENT_NODE else { continue }
                rememberRootNamespaces(node)
                try checkRoot(node)
                if xmlNameEquals(node.pointee.name, "feed") {
                    phase = isEmptyElement ? .afterRootEntry : .feed
                } else {
                    phase = .afterRootEntry
                    return try readEntry(node)
                }
            case .feed:
                guard try read() else {
                    phase = .done
                    return nil
                }
                let node = current!
                if node.pointee.type == XML_ELEMENT_NODE, isEntry(node), !isEndElement {
                    guard self.depth == 1 else {
                        throw problem(
                            "an <entry> inside another element of the feed; entries belong directly in the <feed>",
                            at: node
                        )
                    }
                    return try readEntry(node)
                }
            case .afterRootEntry:
                // Reading on to the end is what finds a truncated document or content after the root.
                while try read() {}
                phase = .done
            }
        }
    }

    /// Refuses a root element other than an Atom `<feed>` or `<entry>`.
    private func checkRoot(_ root: xmlNodePtr) throws(FormatError) {
        guard isNamespace(root, AtomNamespace.atom),
            xmlNameEquals(root.pointee.name, "feed") || xmlNameEquals(root.pointee.name, "entry")
        else {
            throw problem("the root element is \(describe(root)), not an Atom <feed> or <entry>", at: root)
        }
    }

    // MARK: One entry

    /// Reads the entry whose start tag is the current node, through its end tag.
    private func readEntry(_ entry: xmlNodePtr) throws(FormatError) -> AtomRawEntry {
        let entryDepth = self.depth
        entityLine = line(of: entry)
        var fields = EntryFields(
            raw: AtomRawEntry(
                source: source,
                etag: attribute(of: entry, named: "etag"),
                line: entityLine,
                expectedCount: expectedPropertyCount,
                expectedBytes: expectedByteCount
            )
        )
        if !isEmptyElement {
            var propertiesDepth: Int32 = -1
            while true {
                guard try read() else { throw problem("the document ends inside an <entry>", at: nil) }
                let node = current!
                guard node.pointee.type == XML_ELEMENT_NODE else { continue }
                let depth = self.depth
                if isEndElement {
                    if depth == entryDepth { break }
                    if depth == propertiesDepth { propertiesDepth = -1 }
                } else if propertiesDepth >= 0, depth == propertiesDepth + 1 {
                    try readProperty(node, depth: depth, into: &fields)
                } else if propertiesDepth < 0, depth <= entryDepth + 2, xmlNameEquals(node.pointee.name, "properties"),
                    isNamespace(node, AtomNamespace.metadata), !isEmptyElement
                {
                    // In <content> as Azure writes it, or directly in <entry> (OData media-link entries).
                    propertiesDepth = depth
                } else if isEntry(node) {
                    throw problem("an <entry> inside an <entry>; entries belong directly in the <feed>", at: node)
                }
            }
        }
        expectedPropertyCount = fields.raw.properties.count
        expectedByteCount = fields.raw.bytes.count + fields.raw.bytes.count / 4
        return fields.raw
    }

    /// What an entry has yielded so far, and what finds a property given twice (``AtomPieceReader``
    /// keeps one too).
    struct EntryFields {
        var raw: AtomRawEntry
        var hasPartitionKey = false
        var hasRowKey = false
        var hasTimestamp = false
        /// How many property elements the entry has had so far.
        var position = 0
        /// The interned names of the properties, for finding a name given twice by pointer: in an
        /// array while it is short, in a set beyond (a search per property would be quadratic).
        var names: [UnsafePointer<xmlChar>] = []
        var manyNames: Set<UnsafePointer<xmlChar>>?

        mutating func fail(_ reason: String, line: Int) { raw.fail(reason, line: line) }

        /// Notes a property's name; false when the entry had it already.
        mutating func insertName(_ name: UnsafePointer<xmlChar>) -> Bool {
            if manyNames != nil { return manyNames!.insert(name).inserted }
            if names.contains(name) { return false }
            names.append(name)
            if names.count > 32 { manyNames = Set(names) }
            return true
        }

        /// Notes a property; false when the entry had one of that name already.
        mutating func insert(_ role: AtomRawEntry.Role, named name: UnsafePointer<xmlChar>) -> Bool {
            let seen: Bool
            switch role {
            case .partitionKey: (seen, hasPartitionKey) = (hasPartitionKey, true)
            case .rowKey: (seen, hasRowKey) = (hasRowKey, true)
            case .timestamp: (seen, hasTimestamp) = (hasTimestamp, true)
            case .property: seen = !insertName(name)
            }
            return !seen
        }
    }

    /// What a property named `name` (in the data namespace) is to an entity.
    static func role(of name: UnsafePointer<xmlChar>) -> AtomRawEntry.Role {
        xmlNameEquals(name, "PartitionKey")
            ? .partitionKey
            : xmlNameEquals(name, "RowKey")
                ? .rowKey
                : xmlNameEquals(name, "Timestamp") ? .timestamp : .property
    }

    /// Reads one `<d:Name m:type="…">text</d:Name>` whose start tag is the current node.
    ///
    /// The hot path of the reader, so it works on libxml2's bytes: the value is gathered in a reused
    /// buffer, typed values are parsed from it, and a `String` is made only for a string value and,
    /// once per position in the entry, for the name.
    private func readProperty(_ node: xmlNodePtr, depth: Int32, into fields: inout EntryFields) throws(FormatError) {
        let name = node.pointee.name!
        guard isNamespace(node, AtomNamespace.data) else {
            fields.fail(
                "\(describe(node)) in <m:properties> is not in the data namespace (\(AtomNamespace.data))",
                line: line(of: node)
            )
            try skipElement(depth: depth)
            return
        }
        var type = EdmType.string
        var typeProblem: String?
        var isNull = false
        var attribute = node.pointee.properties
        while let current = attribute {
            if let ns = current.pointee.ns, isNamespace(ns, AtomNamespace.metadata) {
                if xmlNameEquals(current.pointee.name, "type") {
                    withValue(of: current) { value in
                        if let declared = Self.edmType(value) {
                            type = declared
                        } else {
                            typeProblem = "has an unknown m:type \"\(String(xmlText: value))\""
                        }
                    }
                } else if xmlNameEquals(current.pointee.name, "null") {
                    withValue(of: current) { value in
                        if xmlNameEquals(value, "true") || xmlNameEquals(value, "1") {
                            isNull = true
                        } else if !xmlNameEquals(value, "false"), !xmlNameEquals(value, "0") {
                            typeProblem = "has m:null=\"\(String(xmlText: value))\"; expected true or false"
                        }
                    }
                }
            }
            attribute = current.pointee.next
        }

        // The content: text and CDATA, possibly split (around comments, say) — joined, straight into
        // the entry's bytes.
        let valueStart = fields.raw.bytes.count
        if !isEmptyElement {
            while true {
                guard try read() else { throw problem("the document ends inside a property", at: nil) }
                let child = current!
                let childType = child.pointee.type
                if childType == XML_TEXT_NODE || childType == XML_CDATA_SECTION_NODE {
                    if let content = child.pointee.content {
                        fields.raw.bytes.append(
                            contentsOf: UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content)))
                        )
                    }
                } else if childType == XML_ELEMENT_NODE {
                    if isEndElement, self.depth == depth { break }
                    if !isEndElement, typeProblem == nil {
                        typeProblem =
                            "contains an element (\(describe(child))); Azure Table properties are simple values"
                    }
                }
            }
        }

        let position = fields.position
        fields.position += 1
        var propertyName: String { names.name(name, at: position) }
        let valueRange = valueStart..<fields.raw.bytes.count
        func drop() { fields.raw.bytes.removeSubrange(valueRange) }
        if let typeProblem {
            fields.fail("property \(propertyName) \(typeProblem)", line: line(of: node))
            return drop()
        }
        if isNull { return drop() }  // a null: Azure stores no such property

        let role = Self.role(of: name)
        if !fields.insert(role, named: name) {
            fields.fail("property \(propertyName) is given twice", line: line(of: node))
            return drop()
        }
        fields.raw.properties.append(
            AtomRawEntry.RawProperty(
                name: propertyName,
                type: type,
                role: role,
                value: valueRange,
                line: line(of: node)
            )
        )
    }

    /// Calls `body` with an attribute's value: its one text child's bytes, or its text children joined.
    private func withValue(of attribute: xmlAttrPtr, _ body: (UnsafePointer<xmlChar>) -> Void) {
        if let child = attribute.pointee.children, child.pointee.next == nil, let content = child.pointee.content {
            body(content)
        } else {
            withXMLString(text(of: attribute), body)
        }
    }

    /// `Edm.Int32` (or the bare `Int32`) read from libxml2's bytes without making a `String`.
    static func edmType(_ name: UnsafePointer<xmlChar>) -> EdmType? {
        var bare = name
        if xmlNameEquals(name, "Edm.String") || xmlNameEquals(name, "String") { return .string }
        if name[0] == UInt8(ascii: "E"), name[1] == UInt8(ascii: "d"), name[2] == UInt8(ascii: "m"),
            name[3] == UInt8(ascii: ".")
        {
            bare = name + 4
        }
        switch bare[0] {
        case UInt8(ascii: "I"):
            return xmlNameEquals(bare, "Int32") ? .int32 : xmlNameEquals(bare, "Int64") ? .int64 : nil
        case UInt8(ascii: "D"):
            return xmlNameEquals(bare, "DateTime") ? .dateTime : xmlNameEquals(bare, "Double") ? .double : nil
        case UInt8(ascii: "B"):
            return xmlNameEquals(bare, "Boolean") ? .boolean : xmlNameEquals(bare, "Binary") ? .binary : nil
        case UInt8(ascii: "G"): return xmlNameEquals(bare, "Guid") ? .guid : nil
        default: return nil
        }
    }

    /// Reads past the end of the element whose start tag is the current node.
    private func skipElement(depth: Int32) throws(FormatError) {
        guard !isEmptyElement else { return }
        while try read() {
            if current!.pointee.type == XML_ELEMENT_NODE, isEndElement, self.depth == depth { return }
        }
        throw problem("the document ends inside an element", at: nil)
    }

    // MARK: libxml2 access

    /// Sends the errors libxml2 raises on this thread without a parser at hand (an encoder that
    /// fails on undecodable input) to the pump, as the parser's own go, and keeps libxml2 from
    /// printing anything to stderr. Reset after each call: the pump may not outlive the reader.
    private static func routeErrors(to pump: UnsafeMutableRawPointer?) {
        speakeasy_silence_generic_errors()
        xmlSetStructuredErrorFunc(pump, pump == nil ? nil : AtomInputPump.errorCallback)
    }

    /// Advances to the next node; false at the end of the document; throws what libxml2 or the input
    /// reported (libxml2 reports some errors, e.g. an undeclared prefix, and still goes on).
    @inline(__always)
    private func read() throws(FormatError) -> Bool {
        guard replay == nil else { return try readReplayed() }
        let result = xmlTextReaderRead(reader)
        guard result == 1, pump.failure == nil else { return try readAfterFailure(result) }
        let node = xmlTextReaderCurrentNode(reader)!
        take(node, isEnd: isEndTag(node))
        return true
    }

    /// ``read()`` once libxml2 or the input reported a failure (kept apart, so the inlined reads stay small).
    @inline(never)
    private func readAfterFailure(_ result: Int32) throws(FormatError) -> Bool {
        if result == 1 {
            let node = xmlTextReaderCurrentNode(reader)!
            let isEnd = isEndTag(node)
            if pump.failure == nil || comesBeforeFailure(node, isEnd: isEnd) {
                take(node, isEnd: isEnd)
                return true
            }
        } else if result < 0, pump.failureLine != nil, let parser = pump.failureParser {
            replay = AtomTreeReplay(
                parser: parser,
                readerNode: xmlTextReaderCurrentNode(reader),
                handedOut: current,
                wasEnd: isEndElement
            )
            if replay != nil { return try readReplayed() }
        }
        try throwFailure()
        if result == 0 { return false }
        throw problem("malformed XML", at: nil)
    }

    /// The next node the failed read had parsed but not handed out (``AtomTreeReplay``), while it
    /// comes before the error; then the error.
    @inline(never)
    private func readReplayed() throws(FormatError) -> Bool {
        if replay!.advance() {
            // Taken before the check: past line 65,535 a start tag's line is the pump's count, noted here.
            take(replay!.node, isEnd: replay!.isEnd)
            if comesBeforeFailure(current!, isEnd: isEndElement) { return true }
        }
        try throwFailure()
        throw problem("malformed XML", at: nil)
    }

    /// Makes `node` the current node, visited as its end tag when `isEnd`.
    @inline(__always)
    private func take(_ node: xmlNodePtr, isEnd: Bool) {
        current = node
        isEndElement = isEnd
        if pump.hasLargeLines { noteLargeLine() }
    }

    /// Whether the reader hands `node` out as an end tag. Only an element has one: text, the other
    /// half of the nodes, needs no call.
    @inline(__always)
    private func isEndTag(_ node: xmlNodePtr) -> Bool {
        node.pointee.type == XML_ELEMENT_NODE
            && xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_END_ELEMENT.rawValue)
    }

    /// Throws the error libxml2 or the input reported, if any.
    private func throwFailure() throws(FormatError) {
        if let error = pump.formatError() { throw error.line == nil ? located(error) : error }
    }

    /// The current node's depth (the root element's is 0).
    private var depth: Int32 {
        if let replay { return replay.depth }
        return xmlTextReaderDepth(reader)
    }

    /// Whether the current node is an element written `<a/>`, which has no end tag to visit.
    private var isEmptyElement: Bool {
        if let replay { return replay.isEmptyElement }
        return xmlTextReaderIsEmptyElement(reader) == 1
    }

    /// Whether a node read after libxml2 met an error comes before the error in the document, and so is
    /// handled first, as a reader of a piece that ends before the error handles it (fuzz findings: an
    /// empty `<entry/>` without keys was reported after a malformed name eight lines on, or before it,
    /// by where the input was cut). An end tag says so by the parser having read it, since its start
    /// tag's line says nothing about where it ends. A start tag or text does by being there at all when
    /// the error stopped the parser (an `<entry>` early on the line of a malformed tag was not handled
    /// first: a fuzz finding), or by its line after one the parser read on from (the encoder's, which
    /// converts input ahead of the parser).
    private func comesBeforeFailure(_ node: xmlNodePtr, isEnd: Bool) -> Bool {
        if isEnd, let parser = pump.failureParser { return !parser.isInside(node) }
        if pump.failureStoppedParsing { return true }
        guard let failureLine = pump.failureLine else { return false }
        return line(of: node) < origin.line(failureLine)
    }

    /// Whether an element is an Atom `<entry>`. Element names are interned in the reader's
    /// dictionary, so a pointer comparison rules out every other name.
    private func isEntry(_ node: xmlNodePtr) -> Bool {
        node.pointee.name == entryName && isNamespace(node, AtomNamespace.atom)
    }

    /// Compares the node's namespace URI. libxml2's `xmlTextReaderConstNamespaceUri` would intern the
    /// URI in a hash table on every call; the node's own `ns->href` is the same bytes for free.
    private func isNamespace(_ node: xmlNodePtr, _ uri: StaticString) -> Bool {
        guard let ns = node.pointee.ns else { return false }
        return isNamespace(ns, uri)
    }

    /// Whether a namespace's URI is `uri`. A namespace declared on the root element (as Azure
    /// declares all three) lives as long as the document, so it is recognised by its pointer: one
    /// comparison instead of sixty bytes, for every property and attribute.
    private func isNamespace(_ ns: xmlNsPtr, _ uri: StaticString) -> Bool {
        for known in rootNamespaces where known.ns == ns { return known.uri == uri.utf8Start }
        return xmlNameEquals(ns.pointee.href, uri)
    }

    private func rememberRootNamespaces(_ root: xmlNodePtr) {
        var declared = root.pointee.nsDef
        while let ns = declared {
            let uri = [AtomNamespace.atom, AtomNamespace.data, AtomNamespace.metadata].first {
                xmlNameEquals(ns.pointee.href, $0)
            }
            rootNamespaces.append((ns, uri?.utf8Start))
            declared = ns.pointee.next
        }
    }

    /// The `m:`-namespace attribute `name` of an element, as XML gives it (references decoded).
    private func attribute(of node: xmlNodePtr, named name: StaticString) -> String? {
        var attribute = node.pointee.properties
        while let current = attribute {
            if xmlNameEquals(current.pointee.name, name), let ns = current.pointee.ns,
                isNamespace(ns, AtomNamespace.metadata)
            {
                return text(of: current)
            }
            attribute = current.pointee.next
        }
        return nil
    }

    /// An attribute's value: the content of its text children (there are no entity nodes without a DTD).
    private func text(of attribute: xmlAttrPtr) -> String {
        var child = attribute.pointee.children
        var value = ""
        while let current = child {
            if let content = current.pointee.content { value += String(xmlText: content) }
            child = current.pointee.next
        }
        return value
    }

    /// Pairs an element from line 65,535 on with its line as the pump counted it, kept in the node's
    /// `psvi` (which only schema validation uses, and there is none): each start tag the pump saw
    /// there is one such element, in the same order.
    private func noteLargeLine() {
        let node = current!
        guard node.pointee.type == XML_ELEMENT_NODE, Int(node.pointee.line) == XMLTagScreen.firstLargeLine,
            !isEndElement,
            let line = pump.nextLargeLine()
        else { return }
        node.pointee.psvi = UnsafeMutableRawPointer(bitPattern: line)
    }

    /// The line of a node. libxml2 keeps element lines in 16 bits (65,535 means "or later"); from
    /// there on the pump's count is used (``noteLargeLine()``), else the parser's line.
    private func line(of node: xmlNodePtr) -> Int {
        let short = Int(node.pointee.line)
        if short > 0, short < XMLTagScreen.firstLargeLine { return origin.line(short) }
        if node.pointee.type == XML_ELEMENT_NODE, let counted = node.pointee.psvi {
            return origin.line(Int(bitPattern: counted))
        }
        let line = Int(xmlGetLineNo(node))
        return origin.line(
            line > 0 && line < XMLTagScreen.firstLargeLine ? line : Int(xmlTextReaderGetParserLineNumber(reader))
        )
    }

    /// `<d:Name>` style, with the namespace when the element has one, for messages.
    private func describe(_ node: xmlNodePtr) -> String {
        let name = node.pointee.name.map { String(xmlText: $0) } ?? "?"
        let prefix = node.pointee.ns?.pointee.prefix.map { String(xmlText: $0) + ":" } ?? ""
        let uri = node.pointee.ns?.pointee.href.map { " (namespace \(String(xmlText: $0)))" } ?? " (no namespace)"
        return "<\(prefix)\(name)>\(uri)"
    }

    /// An error libxml2 raised without a place (an encoder's), at the parser's position.
    private func located(_ error: FormatError) -> FormatError {
        guard error.kind == .malformedInput else { return error }
        var located = problem(error.reason, at: nil)
        located.source = error.source
        return located
    }

    private func problem(_ reason: String, at node: xmlNodePtr?) -> FormatError {
        if let node { return FormatError(source: source, line: line(of: node), reason: reason) }
        let line = Int(xmlTextReaderGetParserLineNumber(reader))
        return FormatError(
            source: source,
            line: origin.line(line),
            column: origin.column(Int(xmlTextReaderGetParserColumnNumber(reader)), onLine: line),
            reason: reason
        )
    }
}
