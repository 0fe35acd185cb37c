/// A range of a blob's bytes as HTTP asks for one (`bytes=0-499`, `bytes=500-`), first and last
/// byte inclusive.
package struct ByteRange: Hashable, Sendable {
    package var first: Int
    /// Nil: to the end.
    package var last: Int?

    package init(first: Int, last: Int? = nil) {
        self.first = first
        self.last = last
    }

    /// The bytes of a blob of `size` bytes that the range covers: a last byte past the end stops at
    /// the end; a first byte past it cannot be satisfied (416, as Azure answers).
    package func resolved(size: Int, account: String = "") throws(StorageError) -> Range<Int> {
        guard first >= 0, first < size, last.map({ $0 >= first }) ?? true else {
            throw StorageError(
                .invalidRange,
                account: account,
                "the range bytes=\(first)-\(last.map(String.init) ?? "") is not satisfiable for a blob of \(size) bytes",
                code: "InvalidRange"
            )
        }
        return first..<Swift.min(size, (last ?? size - 1) + 1)
    }
}
