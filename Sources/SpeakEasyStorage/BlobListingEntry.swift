/// One entry of a List Blobs page: a blob, or with a `delimiter` the `<BlobPrefix>` that stands for
/// every blob whose name goes on past the delimiter (a "folder").
package enum BlobListingEntry: Hashable, Sendable {
    case blob(BlobProperties)
    case prefix(String)

    package var name: String {
        switch self {
        case .blob(let properties): properties.name
        case .prefix(let prefix): prefix
        }
    }
}
