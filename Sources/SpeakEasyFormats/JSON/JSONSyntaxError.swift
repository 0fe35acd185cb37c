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
        /// A number of its type's form that is beyond the type's range (an Int64 past 2^63 - 1, a
        /// Double past the largest).
        case outOfRange
    }

    package let line: Int
    package let column: Int
    package let reason: String
    package var problem: Problem = .syntax

    package var description: String { "line \(line), column \(column): \(reason)" }
}
