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
        let bytes = Array(etag.utf8), prefix = Array("W/\"datetime'".utf8), suffix = Array("'\"".utf8)
        guard bytes.count > prefix.count + suffix.count, bytes.starts(with: prefix), bytes.suffix(suffix.count).elementsEqual(suffix) else { return nil }
        // The time's colons are written %3A.
        var time: [UInt8] = []
        var index = prefix.count
        while index < bytes.count - suffix.count {
            if bytes[index] == UInt8(ascii: "%"), bytes[index...].starts(with: "%3A".utf8) {
                time.append(UInt8(ascii: ":"))
                index += 3
            } else {
                time.append(bytes[index])
                index += 1
            }
        }
        return try? EdmDateTime(parsing: String(decoding: time, as: UTF8.self))
    }

    /// The entity's ETag: the one the store gave it, else the one its Timestamp implies.
    package static func of(_ entity: Entity) -> String? {
        entity.etag ?? entity.timestamp.map(weak)
    }
}
