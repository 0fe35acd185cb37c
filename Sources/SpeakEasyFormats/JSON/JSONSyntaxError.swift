/// Malformed JSON or a value that does not fit its declared type, with where it was found.
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, for callers that answer each differently (the Table service's error codes).
    package enum Problem: Sendable, Equatable {
        /// Not JSON, not UTF-8, or not an object of properties.
        case syntax
        /// An entity without PartitionKey or RowKey.
        case missingKey
        /// A member given twice.
        case repeatedKey
        /// A value that does not fit its type, or an annotation that names no type or no property.
        case invalidValue
    }

    package let line: Int
    package let column: Int
    package let reason: String
    package var problem: Problem = .syntax

    package var description: String { "line \(line), column \(column): \(reason)" }
}
