package import SpeakEasyStorage

/// A blob's content headers on the wire. Writes set them with `x-ms-blob-cache-control`,
/// `-content-disposition`, `-content-encoding` and `-content-language` (Put Blob also takes the
/// plain headers, the `x-ms-blob-` ones winning, as Azure's Put Blob documents); reads return them as
/// the plain `Cache-Control`, `Content-Disposition`, `Content-Encoding`, `Content-Language`, and only
/// when set (Azurite: src/blob/handlers/BlobHandler.ts `getProperties`, `download`).
package enum BlobContentHeaderFields {
    /// The plain names, in ``BlobContentHeaders``' order.
    private static let plain = ["Cache-Control", "Content-Disposition", "Content-Encoding", "Content-Language"]
    /// The names a write sets them with, in the same order.
    private static let written = [
        "x-ms-blob-cache-control", "x-ms-blob-content-disposition", "x-ms-blob-content-encoding",
        "x-ms-blob-content-language",
    ]

    private static func values(_ headers: BlobContentHeaders) -> [String] {
        [headers.cacheControl, headers.contentDisposition, headers.contentEncoding, headers.contentLanguage]
    }

    private static func headers(_ values: [String]) -> BlobContentHeaders {
        BlobContentHeaders(
            cacheControl: values[0],
            contentDisposition: values[1],
            contentEncoding: values[2],
            contentLanguage: values[3]
        )
    }

    /// The content headers a write sets: the `x-ms-blob-` ones, and with `plain` the plain ones
    /// where those are missing.
    package static func read(_ header: (String) -> String?, plain usePlain: Bool) -> BlobContentHeaders {
        headers(
            zip(written, plain).map { name, plainName in header(name) ?? (usePlain ? header(plainName) : nil) ?? "" }
        )
    }

    /// The content headers of a read's reply (plain names).
    package static func readReply(_ header: (String) -> String?) -> BlobContentHeaders {
        headers(plain.map { header($0) ?? "" })
    }

    /// The request headers that set `headers` (the set ones).
    package static func requestFields(_ headers: BlobContentHeaders) -> [(name: String, value: String)] {
        zip(written, values(headers)).compactMap { $1.isEmpty ? nil : ($0, $1) }
    }

    /// The reply headers that return `headers` (the set ones).
    package static func replyFields(_ headers: BlobContentHeaders) -> [(name: String, value: String)] {
        zip(plain, values(headers)).compactMap { $1.isEmpty ? nil : ($0, $1) }
    }
}
