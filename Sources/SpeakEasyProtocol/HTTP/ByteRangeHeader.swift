package import SpeakEasyStorage

/// The `Range` or `x-ms-range` header of a blob read: `bytes=a-b` or `bytes=a-`.
package enum ByteRangeHeader {
    /// The range asked for; nil when there is none, or when the header is malformed, which Azure
    /// ignores (it answers with the whole blob).
    package static func parse(_ header: String?) -> ByteRange? {
        guard let header, header.hasPrefix("bytes=") else { return nil }
        let spec = header.dropFirst("bytes=".count)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]), first >= 0 else { return nil }
        if parts[1].isEmpty { return ByteRange(first: first) }
        guard let last = Int(parts[1]), last >= first else { return nil }
        return ByteRange(first: first, last: last)
    }
}
