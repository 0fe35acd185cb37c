package import SpeakEasyModel

/// Reads single Azure Table JSON objects held in memory: an entity, or the flat object of properties
/// the SQLite account stores. Streams of entities go through ``JSONEntityStreamReader``; both use
/// ``JSONEntityDecoder``, which documents what is accepted.
package enum JSONEntityReader {
    /// Parses one flat object of properties, as the SQLite account stores them. Many objects in a
    /// row go faster through one ``JSONPropertiesReader``.
    package static func properties(fromObject bytes: [UInt8]) throws(JSONSyntaxError) -> [Property] {
        var reader = JSONPropertiesReader()
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) in try reader.properties(fromObject: raw) }
        }
        return try result.get()
    }

    /// Parses one entity object: `PartitionKey`, `RowKey`, `Timestamp` and `odata.etag` (or v4
    /// `@odata.etag`) go to the entity's fields, the rest are typed properties. `line`/`column` give
    /// where the object starts in its input, so errors point into the input.
    package static func entity(
        fromObject bytes: [UInt8],
        line: Int = 1,
        column: Int = 1
    ) throws(JSONSyntaxError) -> Entity {
        var decoder = JSONEntityDecoder(mode: .entity)
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) in
                try decode(raw, line: line, column: column) {
                    (scanner: inout JSONObjectScanner) throws(JSONSyntaxError) in try decoder.entity(&scanner)
                }
            }
        }
        return try result.get()
    }

    /// Runs `read` over the whole of `bytes`, which must hold nothing after the object.
    static func decode<T>(
        _ bytes: UnsafeRawBufferPointer,
        line: Int,
        column: Int,
        _ read: (inout JSONObjectScanner) throws(JSONSyntaxError) -> T
    ) throws(JSONSyntaxError) -> T {
        var scanner = JSONObjectScanner(bytes, line: line, column: column)
        let value = try read(&scanner)
        guard try scanner.peek() == nil else { throw scanner.error("unexpected content after the object") }
        return value
    }
}
