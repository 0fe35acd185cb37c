internal import FoundationEssentials
import SpeakEasyCore
package import SpeakEasyFormats
package import SpeakEasyModel

/// Reads the Table service's JSON response bodies, for the client: the mirror of ``TableJSONWriter``.
///
/// Entities go through the Formats layer's JSON readers, which take every metadata level (without
/// metadata, Int64, DateTime, Guid and Binary values come back as the strings they are written as).
/// Continuation is not in the body but in the `x-ms-continuation-*` headers (``TableContinuation``).
package enum TableJSONReader {
    /// The entities of a Query Entities page (`{"odata.metadata":…,"value":[…]}`).
    package static func entities(_ body: [UInt8]) throws(FormatError) -> [Entity] {
        var reader = JSONEntityStreamReader(input: ByteInput(name: "Query Entities response", bytes: body))
        var entities: [Entity] = []
        while let entity = try reader.next() { entities.append(entity) }
        return entities
    }

    /// One entity (a GET by keys, an insert's 201).
    package static func entity(_ body: [UInt8]) throws(FormatError) -> Entity {
        do throws(JSONSyntaxError) {
            return try JSONEntityReader.entity(fromObject: body)
        } catch {
            throw FormatError(source: "entity response", line: error.line, column: error.column, reason: error.reason)
        }
    }

    private struct TableList: Decodable {
        struct Table: Decodable { var TableName: String }
        var value: [Table]
    }

    private struct TableItem: Decodable { var TableName: String }

    /// The table names of a Query Tables page.
    package static func tableNames(_ body: [UInt8]) throws(FormatError) -> [String] {
        do {
            return try JSONDecoder().decode(TableList.self, from: Data(body)).value.map(\.TableName)
        } catch {
            throw FormatError(source: "Query Tables response", reason: "not a list of tables: \(error)")
        }
    }

    /// The name in a Create Table reply (`{"TableName":"…"}` at any metadata level).
    package static func tableName(_ body: [UInt8]) throws(FormatError) -> String {
        do {
            return try JSONDecoder().decode(TableItem.self, from: Data(body)).TableName
        } catch {
            throw FormatError(source: "Create Table response", reason: "not a table: \(error)")
        }
    }

    /// The body a client sends to create `name`.
    package static func createTableBody(_ name: String) -> [UInt8] {
        var out = Array(#"{"TableName":"#.utf8)
        JSONEntityWriter.appendString(name, to: &out)
        return out + "}".utf8
    }
}
