/// A blob's blocks, as Get Block List reports them: the committed ones in the blob's order, and
/// those staged since (by id: their upload order is not kept).
package struct BlockList: Hashable, Sendable {
    package struct Block: Hashable, Sendable {
        /// The id as the client gave it (base64 text).
        package var id: String
        package var size: Int

        package init(id: String, size: Int) {
            self.id = id
            self.size = size
        }
    }

    package var committed: [Block]
    package var uncommitted: [Block]
    /// The blob's properties; nil while only staged blocks exist.
    package var blob: BlobProperties?

    package init(committed: [Block], uncommitted: [Block], blob: BlobProperties?) {
        self.committed = committed
        self.uncommitted = uncommitted
        self.blob = blob
    }
}
