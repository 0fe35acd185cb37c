/// One entry of a block list: a block id and where to find it.
package struct BlockReference: Hashable, Sendable {
    package enum Source: String, Sendable {
        /// A block of the blob as it stands.
        case committed
        /// A block staged since.
        case uncommitted
        /// The staged block if there is one, else the committed one.
        case latest
    }

    /// The id as the client gave it (base64 text).
    package var id: String
    package var source: Source

    package init(id: String, source: Source) {
        self.id = id
        self.source = source
    }
}
