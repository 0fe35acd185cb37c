import SpeakEasyCore

/// An entity's ETag, which Azure derives from its Timestamp: `W/"datetime'2017-01-05T03%3A26%3A03.516682Z'"`.
///
/// The time is written as Azure writes times (trailing zeros trimmed) with its colons
/// percent-encoded; azure-data-tables synthesises a missing etag the same way, so ours must match it.
/// The local account stamps its writes with it, and the Table protocol derives missing ones.
package enum TableETag {
    package static func weak(_ timestamp: EdmDateTime) -> String {
        "W/\"datetime'" + timestamp.formattedTrimmed().replacing(":", with: "%3A") + "'\""
    }

    /// The Timestamp a ``weak(_:)`` ETag was made from; nil for any other text.
    package static func timestamp(of etag: String) -> EdmDateTime? {
        let prefix = "W/\"datetime'"
        let suffix = "'\""
        guard etag.hasPrefix(prefix), etag.hasSuffix(suffix), etag.count > prefix.count + suffix.count,
            let time = PercentEncoding.decode(etag.dropFirst(prefix.count).dropLast(suffix.count))
        else { return nil }
        return try? EdmDateTime(parsing: time)
    }

    /// Whether `text` can stand in an `If-Match`: `*`, or a weak ETag, `W/"…"` with no bare quote
    /// inside. Azure answers any other with 400 InvalidInput, not 412 (Azurite's `isEtagValid`, from
    /// its issues #730, #1829 and #2013, where `MalformedEtag`, `wrong` and a lone `"` were sent).
    package static func isCondition(_ text: String) -> Bool {
        if text == "*" { return true }
        var bytes = text.utf8[...]
        guard bytes.count >= 4, bytes.first == UInt8(ascii: "W") || bytes.first == UInt8(ascii: "w") else {
            return false
        }
        bytes = bytes.dropFirst()
        guard bytes.starts(with: "/\"".utf8), bytes.last == UInt8(ascii: "\""), bytes.count >= 3 else { return false }
        var escaped = false
        for byte in bytes.dropFirst(2).dropLast() {
            if byte == UInt8(ascii: "\"") && !escaped { return false }
            escaped = byte == UInt8(ascii: "\\") && !escaped
        }
        return true
    }

    /// The entity's ETag: the one the store gave it, else the one its Timestamp implies.
    package static func of(_ entity: Entity) -> String? {
        entity.etag ?? entity.timestamp.map(weak)
    }
}
