import SpeakEasyFormats
package import SpeakEasyStorage

/// The client's side of ``BlobListingXML``: a List Containers or List Blobs reply read back.
extension BlobListingXML {
    /// The container names of a List Containers page, and the marker of the next (nil: the last).
    package static func readContainers(
        _ body: [UInt8],
        account: String
    ) throws(StorageError) -> (names: [String], nextMarker: String?) {
        let root = try results(body, account: account)
        let names =
            root.child("Containers")?.children.filter { $0.name == "Container" }.compactMap { $0.child("Name")?.text }
            ?? []
        return (names, nextMarker(root))
    }

    /// A List Blobs page. ETags, unquoted in listings, are quoted as in headers. A blob listed with
    /// neither `<Last-Modified>` nor `<Etag>` is one that has only staged blocks (Azure lists such a
    /// blob with `include=uncommittedblobs` so, and every other blob with both).
    package static func readBlobs(_ body: [UInt8], account: String) throws(StorageError) -> BlobPage {
        let root = try results(body, account: account)
        var blobs: [BlobProperties] = []
        for element in root.child("Blobs")?.children ?? [] where element.name == "Blob" {
            guard let name = element.child("Name")?.text, let properties = element.child("Properties") else {
                throw unreadable("a <Blob> has no <Name> or <Properties>", account: account)
            }
            func text(_ name: String) -> String { properties.child(name)?.text ?? "" }
            if properties.child("Last-Modified") == nil, properties.child("Etag") == nil {
                guard text("Content-Length") == "0" else {
                    throw unreadable("blob '\(name)' has content but no Last-Modified or Etag", account: account)
                }
                blobs.append(.uncommitted(name: name))
                continue
            }
            guard let size = Int(text("Content-Length")), let modified = HTTPDate.parse(text("Last-Modified")) else {
                throw unreadable("blob '\(name)' has no valid Content-Length or Last-Modified", account: account)
            }
            let etag = text("Etag")
            var metadata: [String: String] = [:]
            for pair in element.child("Metadata")?.children ?? [] { metadata[pair.name] = pair.text }
            blobs.append(
                BlobProperties(
                    name: name,
                    contentType: text("Content-Type"),
                    contentMD5: text("Content-MD5"),
                    size: size,
                    etag: etag.hasPrefix("\"") ? etag : "\"\(etag)\"",
                    lastModified: modified,
                    headers: BlobContentHeaders(
                        cacheControl: text("Cache-Control"),
                        contentDisposition: text("Content-Disposition"),
                        contentEncoding: text("Content-Encoding"),
                        contentLanguage: text("Content-Language")
                    ),
                    metadata: metadata
                )
            )
        }
        return BlobPage(blobs: blobs, nextMarker: nextMarker(root))
    }

    private static func results(_ body: [UInt8], account: String) throws(StorageError) -> XMLTree {
        let root: XMLTree
        do {
            root = try XMLTree(parsing: body)
        } catch {
            throw unreadable("\(error)", account: account)
        }
        guard root.name == "EnumerationResults" else {
            throw unreadable("its root is <\(root.name)>", account: account)
        }
        return root
    }

    private static func nextMarker(_ root: XMLTree) -> String? {
        guard let marker = root.child("NextMarker")?.text, !marker.isEmpty else { return nil }
        return marker
    }

    private static func unreadable(_ why: String, account: String) -> StorageError {
        StorageError(
            .unavailable,
            account: account,
            "the listing the service sent cannot be read: \(why)",
            code: "InvalidXmlDocument"
        )
    }
}
