import SpeakEasyFormats
import SpeakEasyModel

/// A blob's or container's metadata as the `metadata` column holds it: a flat JSON object of
/// strings, names sorted, so the `sqlite3` shell reads it with `json_extract(metadata, '$.name')`.
enum SQLiteMetadataColumn {
    static func encode(_ metadata: [String: String]) -> String {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, name) in metadata.keys.sorted().enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONEntityWriter.appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONEntityWriter.appendString(metadata[name] ?? "", to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The pairs of a stored object; a value that is not a string (never written here) is kept as
    /// its text, and a column that cannot be read reads as no metadata rather than failing the blob.
    static func decode(_ text: String) -> [String: String] {
        guard text != "{}", let properties = try? JSONEntityReader.properties(fromObject: Array(text.utf8)) else {
            return [:]
        }
        var metadata: [String: String] = [:]
        for property in properties {
            if case .string(let value) = property.value {
                metadata[property.name] = value
            } else {
                metadata[property.name] = property.value.description
            }
        }
        return metadata
    }
}
