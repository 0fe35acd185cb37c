/// List Blobs with a delimiter, over any account's flat
/// ``StorageAccount/blobPage(container:prefix:from:limit:includeUncommitted:)``.
extension StorageAccount {
    /// A page of a container's blobs under `prefix`, where every name that goes on past `delimiter`
    /// (after the prefix) is folded into one ``BlobListingEntry/prefix(_:)``, up to and including
    /// the delimiter, in name order among the blobs. A prefix counts as one result towards `limit`,
    /// as Azure counts it (Azurite: src/blob/persistence/PageWithDelimiter.ts). The next marker is
    /// the name of the first blob the page leaves out: a blob, or one that starts the next prefix.
    ///
    /// With `includeUncommitted` the blobs that have only staged blocks count as blobs here too, so
    /// a folder that holds nothing else is listed (Azure's `include=uncommittedblobs`).
    ///
    /// The names of one prefix are contiguous in byte order, so each is read past at once: one page
    /// read a prefix, starting after every name that begins with it.
    package func blobListing(
        container: String,
        prefix: String,
        delimiter: String,
        from marker: String?,
        limit: Int,
        includeUncommitted: Bool = false
    ) async throws
        -> (entries: [BlobListingEntry], nextMarker: String?)
    {
        var entries: [BlobListingEntry] = []
        var from = marker
        while true {
            let page = try await blobPage(
                container: container,
                prefix: prefix,
                from: from,
                limit: limit + 1,
                includeUncommitted: includeUncommitted
            )
            var skipTo: String?
            for blob in page.blobs {
                let folder = Self.folder(of: blob.name, prefix: prefix, delimiter: delimiter)
                if let folder, case .prefix(folder)? = entries.last { continue }
                if entries.count == limit { return (entries, blob.name) }
                guard let folder else {
                    entries.append(.blob(blob))
                    continue
                }
                entries.append(.prefix(folder))
                // Past every name that starts with `folder`: U+10FFFF is the greatest scalar, and a
                // name that still sorts within the folder after it is skipped by the check above.
                skipTo = folder + "\u{10FFFF}"
                break
            }
            if let skipTo {
                from = skipTo
                continue
            }
            guard let next = page.nextMarker else { return (entries, nil) }
            from = next
        }
    }

    /// The folder `name` falls in: up to and including the first `delimiter` after `prefix`; nil
    /// when the name has none (a blob of the listed level).
    static func folder(of name: String, prefix: String, delimiter: String) -> String? {
        guard !delimiter.isEmpty else { return nil }
        let rest = name.utf8.dropFirst(prefix.utf8.count)
        let needle = Array(delimiter.utf8)
        var index = rest.startIndex
        while index != rest.endIndex {
            if rest[index...].starts(with: needle) {
                let end = name.utf8.index(index, offsetBy: needle.count)
                return String(decoding: name.utf8[..<end], as: UTF8.self)
            }
            index = rest.index(after: index)
        }
        return nil
    }
}
