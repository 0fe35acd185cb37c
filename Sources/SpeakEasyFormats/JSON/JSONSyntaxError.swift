/// Malformed JSON or a value that does not fit its declared type, with where it was found.
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    package let line: Int
    package let column: Int
    package let reason: String

    package var description: String { "line \(line), column \(column): \(reason)" }
}
