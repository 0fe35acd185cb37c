/// Who may read a blob container without a key.
package enum ContainerAccess: String, Sendable, CaseIterable {
    /// Only with the account key.
    case `private`
    /// Anyone may read blobs by URL (`x-ms-blob-public-access: blob`).
    case blob
    /// Anyone may read and list blobs (`x-ms-blob-public-access: container`).
    case container
}
