/// The content headers Azure keeps with a blob besides its type and MD5, and hands back on every
/// read of it (GET, HEAD, List Blobs): what a browser or client needs to treat the bytes right.
/// An empty value is a header that was not set, which Azure leaves out of its replies.
package struct BlobContentHeaders: Hashable, Sendable {
    package var cacheControl: String
    package var contentDisposition: String
    package var contentEncoding: String
    package var contentLanguage: String

    package init(
        cacheControl: String = "",
        contentDisposition: String = "",
        contentEncoding: String = "",
        contentLanguage: String = ""
    ) {
        self.cacheControl = cacheControl
        self.contentDisposition = contentDisposition
        self.contentEncoding = contentEncoding
        self.contentLanguage = contentLanguage
    }

    package static let none = BlobContentHeaders()
}
