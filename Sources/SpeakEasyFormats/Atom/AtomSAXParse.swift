internal import CLibXML2
import SpeakEasyCore
import SpeakEasyModel

/// One SAX2 parse of a piece: libxml2 calls back with each tag and text, and this follows
/// ``AtomEntityReader``'s reading of an entry, giving up where that reader would report a problem.
final class AtomSAXParse {
    /// The entries of `bytes`, or nil when the text reader is to read them.
    static func entries(of bytes: [UInt8], source: String, origin: TextOrigin) -> [AtomRawEntry]? {
        _ = AtomNamespace.libraryInitialised
        guard !bytes.isEmpty, bytes.count <= Int(Int32.max) else { return nil }
        let state = AtomSAXParse(source: source, origin: origin)
        let context = Unmanaged.passUnretained(state).toOpaque()
        // Errors libxml2 raises outside the parser's own channel (an encoder's) come here too, and
        // nothing is printed.
        speakeasy_silence_generic_errors()
        xmlSetStructuredErrorFunc(context, Self.errorCallback)
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        let parser = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { xmlCreateMemoryParserCtxt($0.baseAddress, Int32($0.count)) }
        }
        guard let parser else { return nil }
        defer { xmlFreeParserCtxt(parser) }
        _ = xmlCtxtUseOptions(parser, Self.options)
        parser.pointee.sax.pointee = Self.handler
        parser.pointee.userData = context
        state.parser = parser
        _ = withExtendedLifetime(state) { xmlParseDocument(parser) }
        guard !state.gaveUp, parser.pointee.wellFormed != 0, state.sawRoot, state.entry == nil else { return nil }
        return state.entries
    }

    /// As ``AtomEntityReader``'s, less `COMPACT`, which only the tree uses.
    private static let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)
    /// Far below libxml2's 10 MB limit on a text node, far above an Azure value (64 KB at most).
    private static let maximumTextRun = 1 << 20

    private static var handler: xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startElementNs = { context, name, _, uri, namespaceCount, _, attributeCount, _, attributes in
            AtomSAXParse.with(context) {
                $0.start(
                    name!,
                    uri,
                    attributeCount: Int(attributeCount),
                    attributes,
                    namespaceCount: Int(namespaceCount)
                )
            }
        }
        handler.endElementNs = { context, _, _, _ in AtomSAXParse.with(context) { $0.end() } }
        handler.characters = { context, text, length in AtomSAXParse.with(context) { $0.text(text, Int(length)) } }
        // Without NOBLANKS, libxml2 calls white space "ignorable" only where a DTD says so; the
        // text reader keeps it as text, and so does this.
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = handler.characters
        handler.internalSubset = { context, _, _, _ in AtomSAXParse.with(context) { $0.giveUp() } }
        handler.externalSubset = { context, _, _, _ in AtomSAXParse.with(context) { $0.giveUp() } }
        handler.serror = errorCallback
        return handler
    }

    private static let errorCallback: xmlStructuredErrorFunc = { context, _ in
        guard context != nil else { return }
        // Not stopped here: libxml2 goes on with its own state after reporting (a fuzz finding:
        // stopping it inside xmlSwitchEncoding's report crashed it). Ignored from here on instead.
        AtomSAXParse.with(context) { $0.giveUp(stoppingParser: false) }
    }

    /// Calls `body` with the parse whose context libxml2 passed, which outlives the parse (no
    /// retain and release for each of the millions of callbacks).
    @inline(__always)
    private static func with(_ context: UnsafeMutableRawPointer?, _ body: (AtomSAXParse) -> Void) {
        Unmanaged<AtomSAXParse>.fromOpaque(context!)._withUnsafeGuaranteedRef(body)
    }

    // MARK: The parse's state

    private let source: String
    private let origin: TextOrigin
    @exclusivity(unchecked) var parser: xmlParserCtxtPtr?
    @exclusivity(unchecked) private(set) var entries: [AtomRawEntry] = []
    @exclusivity(unchecked) private(set) var gaveUp = false
    @exclusivity(unchecked) private(set) var sawRoot = false
    /// Open elements, the root included.
    @exclusivity(unchecked) private var depth: Int32 = 0
    /// The open entry (a child of the root, depth 1), and the depth of its open `<m:properties>`.
    @exclusivity(unchecked) private(set) var entry: AtomEntityReader.EntryFields?
    @exclusivity(unchecked) private var propertiesDepth: Int32 = -1
    /// The open property.
    @exclusivity(unchecked) private var property: OpenProperty?
    /// Text since the last tag.
    @exclusivity(unchecked) private var textRun = 0
    @exclusivity(unchecked) private var names = AtomPropertyNames()
    @exclusivity(unchecked) private var namespaces = KnownNamespaces()
    @exclusivity(unchecked) private var expectedPropertyCount = 8
    @exclusivity(unchecked) private var expectedByteCount = 1024

    private struct OpenProperty {
        var name: UnsafePointer<xmlChar>
        var type: EdmType
        var isNull: Bool
        var line: Int
        var depth: Int32
        var valueStart: Int
    }

    private init(source: String, origin: TextOrigin) {
        self.source = source
        self.origin = origin
    }

    /// Drops the parse: the text reader reads the piece. Stopping the parser saves reading on, and is
    /// safe in the callbacks of tags and text.
    func giveUp(stoppingParser: Bool = true) {
        guard !gaveUp else { return }
        gaveUp = true
        guard let parser else { return }
        if stoppingParser {
            xmlStopParser(parser)
        } else {
            parser.pointee.disableSAX = 1
        }
    }

    // MARK: Callbacks

    private func start(
        _ name: UnsafePointer<xmlChar>,
        _ uri: UnsafePointer<xmlChar>?,
        attributeCount: Int,
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
        namespaceCount: Int
    ) {
        guard !gaveUp else { return }
        let depth = self.depth
        self.depth += 1
        textRun = 0
        // Past line 65,535 the text reader takes lines from its own count, at the tag's `<`; its
        // screen refuses a tag with too many attributes (AtomFeedSplitter leaves such a tag to it).
        let line = Int(parser!.pointee.input.pointee.line)
        guard line < XMLTagScreen.firstLargeLine, attributeCount + namespaceCount <= XMLTagScreen.maximumAttributes,
            property == nil
        else { return giveUp() }
        guard sawRoot else {
            sawRoot = true
            if !(xmlNameEquals(name, "feed") && namespaces.is(uri, .atom)) { giveUp() }
            return
        }
        let isEntry = xmlNameEquals(name, "entry") && namespaces.is(uri, .atom)
        guard entry != nil else {
            guard isEntry else { return }
            guard depth == 1 else { return giveUp() }
            entry = AtomEntityReader.EntryFields(
                raw: AtomRawEntry(
                    source: source,
                    etag: etag(attributeCount, attributes),
                    line: origin.line(line),
                    expectedCount: expectedPropertyCount,
                    expectedBytes: expectedByteCount
                )
            )
            return
        }
        if propertiesDepth >= 0, depth == propertiesDepth + 1 {
            startProperty(name, uri, depth: depth, line: line, attributeCount: attributeCount, attributes)
        } else if propertiesDepth < 0, depth <= 3, xmlNameEquals(name, "properties"),  // in <content> or <entry>
            namespaces.is(uri, .metadata)
        {
            propertiesDepth = depth
        } else if isEntry {
            giveUp()
        }
    }

    private func startProperty(
        _ name: UnsafePointer<xmlChar>,
        _ uri: UnsafePointer<xmlChar>?,
        depth: Int32,
        line: Int,
        attributeCount: Int,
        _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard namespaces.is(uri, .data) else { return giveUp() }
        var type = EdmType.string
        var isNull = false
        for index in 0..<attributeCount {
            // Five pointers an attribute: local name, prefix, URI, value, value's end.
            let attribute = attributes! + 5 * index
            guard namespaces.is(attribute[2], .metadata) else { continue }
            if xmlNameEquals(attribute[0], "type") {
                guard let declared = Self.withValue(attribute, AtomEntityReader.edmType) else { return giveUp() }
                type = declared
            } else if xmlNameEquals(attribute[0], "null") {
                guard let value = Self.withValue(attribute, Self.nullValue) else { return giveUp() }
                isNull = value
            }
        }
        property = OpenProperty(
            name: name,
            type: type,
            isNull: isNull,
            line: origin.line(line),
            depth: depth,
            valueStart: entry!.raw.bytes.count
        )
    }

    private func text(_ text: UnsafePointer<xmlChar>?, _ length: Int) {
        guard !gaveUp else { return }
        textRun += length
        guard textRun <= Self.maximumTextRun else { return giveUp() }
        if property != nil, let text {
            entry!.raw.bytes.append(contentsOf: UnsafeBufferPointer(start: text, count: length))
        }
    }

    private func end() {
        guard !gaveUp else { return }
        depth -= 1
        textRun = 0
        guard entry != nil else { return }
        if let open = property {
            if depth == open.depth { endProperty(open) }
        } else if depth == 1 {
            expectedPropertyCount = entry!.raw.properties.count
            expectedByteCount = entry!.raw.bytes.count + entry!.raw.bytes.count / 4
            entries.append(entry.take()!.raw)
            propertiesDepth = -1
        } else if depth == propertiesDepth {
            propertiesDepth = -1
        }
    }

    private func endProperty(_ open: OpenProperty) {
        property = nil
        let position = entry!.position
        entry!.position += 1
        let valueRange = open.valueStart..<entry!.raw.bytes.count
        if open.isNull { return entry!.raw.bytes.removeSubrange(valueRange) }
        let role = AtomEntityReader.role(of: open.name)
        guard entry!.insert(role, named: open.name) else { return giveUp() }
        entry!.raw.properties.append(
            AtomRawEntry.RawProperty(
                name: names.name(open.name, at: position),
                type: open.type,
                role: role,
                value: valueRange,
                line: open.line
            )
        )
    }

    /// Recognises the three namespaces by pointer once seen: libxml2 interns a namespace's URI in
    /// its parser's dictionary, so every element in one namespace has the same pointer (a comparison
    /// instead of sixty bytes, for every element and attribute).
    private struct KnownNamespaces {
        enum Name: Int { case atom, data, metadata }
        private var pointers: [UnsafePointer<xmlChar>?] = [nil, nil, nil]

        mutating func `is`(_ uri: UnsafePointer<xmlChar>?, _ name: Name) -> Bool {
            guard let uri else { return false }
            if pointers[name.rawValue] == uri { return true }
            let literal: StaticString =
                switch name {
                case .atom: AtomNamespace.atom
                case .data: AtomNamespace.data
                case .metadata: AtomNamespace.metadata
                }
            guard xmlNameEquals(uri, literal) else { return false }
            pointers[name.rawValue] = uri
            return true
        }
    }

    // MARK: Attributes

    /// The entry's `m:etag`, as the text reader gives it.
    private func etag(_ count: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) -> String? {
        for index in 0..<count {
            let attribute = attributes! + 5 * index
            guard xmlNameEquals(attribute[0], "etag"), namespaces.is(attribute[2], .metadata) else {
                continue
            }
            let value = UnsafeBufferPointer(start: attribute[3], count: attribute[3]!.distance(to: attribute[4]!))
            // Without entity substitution libxml2 hands an attribute's `&` on as `&#38;` (every other
            // reference it decodes), for the tree to decode; no other `&` can be left in a value.
            let text = String(decoding: value, as: UTF8.self)
            return value.contains(UInt8(ascii: "&")) ? text.replacing("&#38;", with: "&") : text
        }
        return nil
    }

    /// Calls `body` with an attribute's value as a NUL-terminated string; nil for a value with a
    /// reference in it (an `&`, see ``etag(_:_:)``), which no m:type or m:null the reader knows has.
    private static func withValue<T>(
        _ attribute: UnsafeMutablePointer<UnsafePointer<xmlChar>?>,
        _ body: (UnsafePointer<xmlChar>) -> T?
    ) -> T? {
        let count = attribute[3]!.distance(to: attribute[4]!)
        guard count < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: xmlChar.self, capacity: count + 1) { copy in
            for index in 0..<count {
                if attribute[3]![index] == UInt8(ascii: "&") { return nil }
                copy[index] = attribute[3]![index]
            }
            copy[count] = 0
            return body(UnsafePointer(copy.baseAddress!))
        }
    }

    /// What an `m:null` says, as the text reader reads it; nil for a value it refuses.
    private static func nullValue(_ value: UnsafePointer<xmlChar>) -> Bool? {
        if xmlNameEquals(value, "true") || xmlNameEquals(value, "1") { return true }
        if xmlNameEquals(value, "false") || xmlNameEquals(value, "0") { return false }
        return nil
    }
}
