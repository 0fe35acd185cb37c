package import SpeakEasyModel

/// Who may read a blob container without a key.
package enum ContainerAccess: String, Sendable, CaseIterable {
    /// Only with the account key.
    case `private`
    /// Anyone may read blobs by URL (`x-ms-blob-public-access: blob`).
    case blob
    /// Anyone may read and list blobs (`x-ms-blob-public-access: container`).
    case container
}

/// A blob container's stored properties.
package struct ContainerProperties: Hashable, Sendable {
    package var name: String
    package var access: ContainerAccess
    package var etag: String
    package var lastModified: EdmDateTime
    /// The container's `x-ms-meta-*` pairs.
    package var metadata: [String: String]

    package init(
        name: String,
        access: ContainerAccess,
        etag: String,
        lastModified: EdmDateTime,
        metadata: [String: String] = [:]
    ) {
        self.name = name
        self.access = access
        self.etag = etag
        self.lastModified = lastModified
        self.metadata = metadata
    }
}
