package import SpeakEasyModel

/// Reads single Azure Table JSON objects held in memory: an entity, or the flat object of properties
/// the SQLite account stores. Streams of entities go through ``JSONEntityStreamReader``; both use
/// ``JSONEntityDecoder``, which documents what is accepted.
package enum JSONEntityReader {
    /// Parses one flat object of properties, as the SQLite account stores them.
    package static func properties(fromObject bytes: [UInt8]) throws(JSONSyntaxError) -> [Property] {
        var decoder = JSONEntityDecoder(mode: .properties)
        return try decode(bytes, line: 1, column: 1) { (scanner: inout JSONObjectScanner) throws(JSONSyntaxError) in try decoder.properties(&scanner) }
    }

    /// Parses one entity object: `PartitionKey`, `RowKey`, `Timestamp` and `odata.etag` (or v4
    /// `@odata.etag`) go to the entity's fields, the rest are typed properties. `line`/`column` give
    /// where the object starts in its input, so errors point into the input.
    package static func entity(fromObject bytes: [UInt8], line: Int = 1, column: Int = 1) throws(JSONSyntaxError) -> Entity {
        var decoder = JSONEntityDecoder(mode: .entity)
        return try decode(bytes, line: line, column: column) { (scanner: inout JSONObjectScanner) throws(JSONSyntaxError) in try decoder.entity(&scanner) }
    }

    /// Runs `read` over the whole of `bytes`, which must hold nothing after the object.
    private static func decode<T>(
        _ bytes: [UInt8], line: Int, column: Int, _ read: (inout JSONObjectScanner) throws(JSONSyntaxError) -> T
    ) throws(JSONSyntaxError) -> T {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) -> T in
                var scanner = JSONObjectScanner(raw, line: line, column: column)
                let value = try read(&scanner)
                guard try scanner.peek() == nil else { throw scanner.error("unexpected content after the object") }
                return value
            }
        }
        return try result.get()
    }
}
