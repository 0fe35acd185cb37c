import SpeakEasyFormats

/// The little XML this target writes and reads by hand: error bodies are a fixed two-element shape,
/// not worth a parser (and the protocol layer links no XML library; entities in Atom go through the
/// Formats layer's libxml2 readers and writers).
enum XMLText {
    /// Element content, escaped by the Formats layer's escaping, which shows what XML 1.0 cannot hold
    /// at all (a control character in a key an error message quotes) instead of writing a document
    /// no parser reads.
    static func text(_ text: String) -> String {
        var out: [UInt8] = []
        XMLEscaping.appendText(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A double-quoted attribute value, escaped likewise.
    static func attribute(_ value: String) -> String {
        var out: [UInt8] = []
        XMLEscaping.appendAttribute(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The unescaped text of the first element named `name` (any prefix, any attributes), or nil.
    static func elementText(_ name: String, in document: String) -> String? {
        var search = document[...]
        while let open = search.firstRange(of: "<") {
            let rest = search[open.upperBound...]
            guard let close = rest.firstIndex(of: ">") else { return nil }
            let tag = rest[..<close]
            let tagName = tag.prefix { $0 != " " && $0 != "/" && $0 != "\t" && $0 != "\r" && $0 != "\n" }
            let local = tagName.split(separator: ":").last.map(String.init) ?? ""
            if local == name, !tag.hasPrefix("/") {
                if tag.hasSuffix("/") { return "" }
                let body = rest[rest.index(after: close)...]
                guard let end = body.firstRange(of: "</" + tagName) else { return nil }
                return unescaped(body[..<end.lowerBound])
            }
            search = rest[close...]
        }
        return nil
    }

    /// Replaces the five predefined entities and character references.
    static func unescaped(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "lt": out += "<"
            case "gt": out += ">"
            case "amp": out += "&"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                let number =
                    entity.hasPrefix("#x")
                    ? UInt32(entity.dropFirst(2), radix: 16) : entity.hasPrefix("#") ? UInt32(entity.dropFirst()) : nil
                if let number, let scalar = Unicode.Scalar(number) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += "&\(entity);"
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}
