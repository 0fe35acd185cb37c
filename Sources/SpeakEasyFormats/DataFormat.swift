/// The file formats the toolkit reads and writes.
public enum DataFormat: String, CaseIterable, Sendable {
    /// An Atom feed, as Azure served table entities before JSON and as the app reads them.
    case atom
    /// Azure's JSON: one document, `{"value":[…]}`, with `odata.type` annotations where the type is not implied.
    case json
    /// Azure's JSON, one entity a line.
    case ndjson
    /// Comma- (or otherwise) separated values: plain, typed (a second header row of types) or for spreadsheets.
    case csv

    /// From a file name's extension: `.atom`/`.xml`, `.json`, `.ndjson`/`.jsonl`, `.csv`/`.tsv` (also
    /// Storage Explorer's `.typed.csv`); nil when the extension says nothing.
    public init?(fileExtensionOf path: String) {
        guard let ext = Self.fileExtension(of: path),
            let format = Self.allCases.first(where: {
                $0.fileExtensions.contains(ext)
            })
        else { return nil }
        self = format
    }

    /// The extensions that name the format, lower case and without the dot, the usual one first.
    package var fileExtensions: [String] {
        switch self {
        case .atom: ["atom", "xml"]
        case .json: ["json"]
        case .ndjson: ["ndjson", "jsonl"]
        case .csv: ["csv", "tsv"]
        }
    }

    /// Every extension a format has, as the tools list them: `.atom/.xml, .json, .ndjson/.jsonl, .csv/.tsv`.
    package static var knownExtensions: String {
        allCases.map { $0.fileExtensions.map { "." + $0 }.joined(separator: "/") }.joined(separator: ", ")
    }

    /// The extension of a path's last component, lower case and without the dot; nil when it has none.
    package static func fileExtension(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return nil }
        return name[name.index(after: dot)...].lowercased()
    }

    /// Whether `path` names a tab-separated file (`.tsv`), which is read and written with tabs unless
    /// a delimiter is given.
    package static func isTabSeparated(_ path: String) -> Bool { fileExtension(of: path) == "tsv" }

    /// From the first bytes of the content: `<` is Atom; `{` or `[` is JSON, or NDJSON when the first
    /// line holds a whole object and another line follows; anything else is CSV. A UTF-8 BOM and
    /// leading whitespace are skipped.
    package init(sniffing prefix: some Collection<UInt8>) {
        var bytes = Array(prefix)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let start = bytes.firstIndex(where: { !Self.isSpace($0) }) else {
            self = .csv
            return
        }
        switch bytes[start] {
        case UInt8(ascii: "<"): self = .atom
        case UInt8(ascii: "["): self = .json
        case UInt8(ascii: "{"):
            self = Self.firstLineIsWholeObject(bytes[start...]) ? .ndjson : .json
        default: self = .csv
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// True when the braces of the first line balance (outside strings) and more content follows it.
    private static func firstLineIsWholeObject(_ bytes: ArraySlice<UInt8>) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
            } else if byte == 0x0A {
                guard depth == 0 else { return false }
                return bytes[(index + 1)...].contains { !isSpace($0) }
            }
            index += 1
        }
        return false
    }
}
