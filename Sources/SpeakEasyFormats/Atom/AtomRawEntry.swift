import SpeakEasyModel

/// One Atom entry as ``AtomEntityReader`` found it, its values still bytes.
///
/// Reading an entry has two stages: finding its parts, which follows libxml2's parse in document
/// order, and making its values (strings, dates, numbers), which does not need libxml2. `export`
/// runs the second on another thread (``StagedEntityReader``); everyone else calls `entity()` at once.
struct AtomRawEntry: StagedEntity {
    enum Role: Sendable { case partitionKey, rowKey, timestamp, property }

    struct RawProperty: Sendable {
        var name: String
        var type: EdmType
        var role: Role
        /// The value's bytes in ``AtomRawEntry/bytes``.
        var value: Range<Int>
        /// The property element's line, for errors.
        var line: Int
    }

    let source: String
    var etag: String?
    var line: Int
    var properties: [RawProperty] = []
    /// Every value's bytes, one after another.
    var bytes: [UInt8] = []
    /// The first problem the reader found, and how many properties were recorded before it: a
    /// problem with a value recorded earlier comes first in the document and wins.
    var problem: (reason: String, line: Int, after: Int)?

    init(source: String, etag: String?, line: Int, expectedCount: Int, expectedBytes: Int) {
        self.source = source
        self.etag = etag
        self.line = line
        properties.reserveCapacity(expectedCount)
        bytes.reserveCapacity(expectedBytes)
    }

    mutating func fail(_ reason: String, line: Int) {
        if problem == nil { problem = (reason, line, properties.count) }
    }

    /// Makes the entity, or names the first problem in document order with the entity's keys, which
    /// may come after the bad property.
    func entity() throws(FormatError) -> Entity { try entity(keysIfAbsent: nil) }

    /// The same; `keysIfAbsent` stand in for keys the entry does not give (a request to the
    /// entity's own URL, whose body may leave them out).
    func entity(keysIfAbsent: (partitionKey: String, rowKey: String)?) throws(FormatError) -> Entity {
        var partitionKey: String?
        var rowKey: String?
        var timestamp: EdmDateTime?
        var values: [Property] = []
        values.reserveCapacity(properties.count)
        var failure: (reason: String, line: Int, index: Int)?
        bytes.withUnsafeBytes { all in
            for (index, raw) in properties.enumerated() {
                let value = UnsafeRawBufferPointer(rebasing: all[raw.value])
                func fail(_ reason: String) { if failure == nil { failure = (reason, raw.line, index) } }
                switch raw.role {
                case .partitionKey, .rowKey:
                    guard raw.type == .string else {
                        fail("\(raw.name) must be an Edm.String, not \(raw.type.rawValue)")
                        continue
                    }
                    let key = String(decoding: value, as: UTF8.self)
                    if raw.role == .partitionKey { partitionKey = key } else { rowKey = key }
                case .timestamp:
                    guard raw.type == .dateTime || raw.type == .string, let time = try? EdmDateTime.parse(value) else {
                        fail("Timestamp \(Self.quote(value)) is not an Edm.DateTime")
                        continue
                    }
                    timestamp = time
                case .property:
                    let parsed: EdmValue?
                    switch raw.type {
                    case .string: parsed = .string(String(decoding: value, as: UTF8.self))
                    case .dateTime: parsed = (try? EdmDateTime.parse(value)).map(EdmValue.dateTime)
                    default: parsed = EdmValue(lexical: String(decoding: value, as: UTF8.self), as: raw.type)
                    }
                    guard let parsed else {
                        let text = String(decoding: value, as: UTF8.self)
                        fail(
                            "property \(raw.name): \(Self.quote(value)) is not a valid \(raw.type.rawValue)\(EdmValue.isOutOfRange(text, as: raw.type) ? " (out of range)" : "")"
                        )
                        continue
                    }
                    values.append(Property(raw.name, parsed))
                }
            }
        }
        let keys =
            partitionKey.flatMap { pk in rowKey.map { (partitionKey: pk, rowKey: $0) } }
            ?? (partitionKey == nil && rowKey == nil ? keysIfAbsent : nil)
        if let problem, failure.map({ $0.index >= problem.after }) ?? true {
            throw FormatError(source: source, line: problem.line, keys: keys, reason: problem.reason)
        }
        if let failure { throw FormatError(source: source, line: failure.line, keys: keys, reason: failure.reason) }
        guard let keys else {
            throw FormatError(
                source: source,
                line: line,
                reason: "the entry has no \(partitionKey == nil ? "PartitionKey" : "RowKey") property"
            )
        }
        return Entity(
            partitionKey: keys.partitionKey,
            rowKey: keys.rowKey,
            timestamp: timestamp,
            etag: etag,
            properties: values
        )
    }

    /// A value quoted for a message, shortened when long.
    private static func quote(_ bytes: UnsafeRawBufferPointer) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.count > 60 ? "'\(text.prefix(60))…'" : "'\(text)'"
    }
}
