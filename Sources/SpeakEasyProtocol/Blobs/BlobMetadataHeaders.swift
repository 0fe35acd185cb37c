/// A blob's or container's metadata on the wire: one `x-ms-meta-<name>: <value>` header a pair, on
/// writes (Put Blob, Put Block List, Set … Metadata, Create Container) and on reads (GET, HEAD, Get
/// Container Properties). The server and the client read and write them here alike.
package enum BlobMetadataHeaders {
    package static let prefix = "x-ms-meta-"

    /// The pairs of a request's or reply's headers. A name must be a C# identifier, as Azure's are
    /// (Azurite: src/common/utils/utils.ts `convertRawHeadersToMetadata`, with
    /// `VALID_CSHARP_IDENTIFIER_REGEX` of src/common/utils/constants.ts), else 400 InvalidMetadata;
    /// a name sent twice keeps both values, joined with a comma as Azurite does.
    package static func read(_ headers: [(name: String, value: String)]) throws(BlobServiceError) -> [String: String] {
        var metadata: [String: String] = [:]
        for header in headers
        where header.name.utf8.count > prefix.utf8.count && header.name.lowercased().hasPrefix(prefix) {
            let name = String(header.name.dropFirst(prefix.count))
            guard isIdentifier(name) else { throw .invalidMetadata(name) }
            metadata[name] = metadata[name].map { $0 + "," + header.value } ?? header.value
        }
        return metadata
    }

    /// The headers that carry `metadata`, in name order.
    package static func fields(_ metadata: [String: String]) -> [(name: String, value: String)] {
        metadata.keys.sorted().map { (prefix + $0, metadata[$0] ?? "") }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`: ASCII only, as in Azurite's expression.
    package static func isIdentifier(_ name: String) -> Bool {
        func letter(_ byte: UInt8) -> Bool {
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
        }
        let bytes = Array(name.utf8)
        guard let first = bytes.first, letter(first) else { return false }
        return bytes.dropFirst().allSatisfy { letter($0) || ($0 >= 0x30 && $0 <= 0x39) }
    }
}
