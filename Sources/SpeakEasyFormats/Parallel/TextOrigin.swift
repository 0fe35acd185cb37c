/// Where a piece of a file begins in the file, so that a reader parsing the piece on its own (one of
/// several threads sharing a file) reports lines and columns of the file, not of the piece.
///
/// The piece may start with a line of its own that is not the file's (an Atom feed's root start tag,
/// repeated so that the piece parses as a document); that line stands for the line it was copied from.
package struct TextOrigin: Sendable, Equatable {
    /// The piece's first line that holds the file's bytes: 1, or 2 after an added line.
    package var firstLine = 1
    /// The file's line and column of the piece's first byte of the file.
    package var fileLine = 1
    package var fileColumn = 1
    /// The file's line an added first line was copied from.
    package var addedLineSource = 1

    /// A whole file, or its first piece.
    package static let start = TextOrigin()

    package init(firstLine: Int = 1, fileLine: Int = 1, fileColumn: Int = 1, addedLineSource: Int = 1) {
        self.firstLine = firstLine
        self.fileLine = fileLine
        self.fileColumn = fileColumn
        self.addedLineSource = addedLineSource
    }

    /// The file's line for the piece's 1-based `line`.
    package func line(_ line: Int) -> Int { line < firstLine ? addedLineSource : line - firstLine + fileLine }

    /// The file's column for the piece's 1-based `column` on the piece's `line`.
    package func column(_ column: Int, onLine line: Int) -> Int { line == firstLine ? column + fileColumn - 1 : column }
}
