/// What a write sets on a blob besides its bytes: Put Blob's and Put Block List's content type,
/// content headers and metadata. Each write replaces all of them, as Azure's do.
package struct BlobSettings: Hashable, Sendable {
    package var contentType: String
    package var headers: BlobContentHeaders
    /// Name → value, names as the client spelled them (Azure keeps their case).
    package var metadata: [String: String]
    /// The Content-MD5 to keep instead of the MD5 of the bytes (Put Block List's
    /// `x-ms-blob-content-md5`, Set Blob Properties' `x-ms-blob-content-md5`); nil: the bytes' own.
    package var contentMD5: String?

    package init(
        contentType: String = "application/octet-stream",
        headers: BlobContentHeaders = .none,
        metadata: [String: String] = [:],
        contentMD5: String? = nil
    ) {
        self.contentType = contentType
        self.headers = headers
        self.metadata = metadata
        self.contentMD5 = contentMD5
    }
}
