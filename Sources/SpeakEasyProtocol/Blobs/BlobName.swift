/// A blob's name as the Blob service takes it from a request's path.
package enum BlobName {
    /// The name a request addresses.
    ///
    /// - `\` is `/`: "Azure Storage Server will replace "\" with "/" in the blob names" (Azurite:
    ///   src/blob/middlewares/blobStorageContext.middleware.ts `extractStoragePartsFromPath`; its
    ///   tests/blob/sas.test.ts signs a SAS for the name with `/`), so a SAS is signed for that name.
    /// - Control characters (U+0000–U+001F, U+007F–U+009F) are refused with 400: "some ASCII or
    ///   Unicode characters, like control characters (0x00 to 0x1F, \u0081, etc.), are also not
    ///   allowed" (Azure's "Naming and Referencing Containers, Blobs, and Metadata"). Azurite takes
    ///   them, and SQLite's text functions stop at a NUL, so storing one would not list it right.
    /// - A `.` or `..` segment, once `\` is `/`, names another resource: 400 InvalidUri, as for `/`.
    package static func normalize(_ name: String) throws(BlobServiceError) -> String {
        if name.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            throw .invalidResourceName(
                "The specified resource name contains invalid characters (a control character in the blob name)."
            )
        }
        guard name.utf8.contains(UInt8(ascii: "\\")) else { return name }
        let normalized = String(
            decoding: name.utf8.map { $0 == UInt8(ascii: "\\") ? UInt8(ascii: "/") : $0 },
            as: UTF8.self
        )
        if normalized.split(separator: "/", omittingEmptySubsequences: false).contains(where: {
            $0 == "." || $0 == ".."
        }) {
            throw BlobServiceError(
                status: 400,
                code: "InvalidUri",
                "The requested URI does not represent any resource on the server (it holds a . or .. segment)."
            )
        }
        return normalized
    }
}
