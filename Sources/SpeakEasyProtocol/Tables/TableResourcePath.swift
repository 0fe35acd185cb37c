import SpeakEasyCore
import SpeakEasyFormats

/// What a Table service URL path addresses, parsed from the request and written into URLs
/// (`Location`, `odata.id`, `odata.editLink`, batch operations, the client's requests).
///
/// The forms are those of the REST reference: `Tables`, `Tables('speakers')`, `speakers`,
/// `speakers()`, `speakers(PartitionKey='speaker',RowKey='ada')` and `$batch`. Key literals are
/// single-quoted with a quote inside doubled (`O''Brien`), and the path may be percent-encoded
/// (clients send both `'` and `%27`), so a path is percent-decoded first, then its literals read.
package enum TableResourcePath: Equatable, Sendable {
    /// `Tables`: list or create tables.
    case tables
    /// `Tables('name')`: delete (or get) one table.
    case table(String)
    /// `name` or `name()`: query or insert entities.
    case entities(table: String)
    /// `name(PartitionKey='…',RowKey='…')`: one entity.
    case entity(table: String, partitionKey: String, rowKey: String)
    /// `$batch`: an entity group transaction.
    case batch

    /// Parses the last segment of `path` (raw, as sent: the account's segment, if any, comes before
    /// it). Throws 400 InvalidInput for anything else, as Azure answers a URL it cannot read.
    package init(parsing path: some StringProtocol) throws(TableServiceError) {
        let raw = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? String(path)
        guard let segment = PercentEncoding.decode(raw), !segment.isEmpty else { throw Self.syntaxError }
        if segment == "$batch" {
            self = .batch
            return
        }
        guard let open = segment.firstIndex(of: "(") else {
            guard segment != "Tables" else {
                self = .tables
                return
            }
            self = .entities(table: try Self.tableName(segment[...]))
            return
        }
        guard segment.hasSuffix(")") else { throw Self.syntaxError }
        let name = segment[..<open]
        let inside = segment[segment.index(after: open)..<segment.index(before: segment.endIndex)]
        if name == "Tables" {
            var rest = inside[...]
            let table = try Self.literal(&rest)
            guard rest.isEmpty else { throw Self.syntaxError }
            self = .table(try Self.tableName(Substring(table)))
            return
        }
        let table = try Self.tableName(name)
        if inside.isEmpty {
            self = .entities(table: table)
            return
        }
        var keys: [String: String] = [:]
        var rest = inside[...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " }
            guard let equals = rest.firstIndex(of: "=") else { throw Self.syntaxError }
            let key = String(rest[..<equals].trimmingASCIISpaces)
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            guard key == "PartitionKey" || key == "RowKey", keys[key] == nil else { throw Self.syntaxError }
            keys[key] = try Self.literal(&rest)
            rest = rest.drop { $0 == " " }
            if rest.first == "," {
                rest = rest.dropFirst()
                guard !rest.isEmpty else { throw Self.syntaxError }
            } else if !rest.isEmpty {
                throw Self.syntaxError
            }
        }
        guard let partitionKey = keys["PartitionKey"], let rowKey = keys["RowKey"] else { throw Self.syntaxError }
        self = .entity(table: table, partitionKey: partitionKey, rowKey: rowKey)
    }

    /// The segment as Azure writes it in `Location`, `odata.id` and `odata.editLink`:
    /// `speakers(PartitionKey='speaker',RowKey='O''Brien')`, unsafe bytes percent-encoded.
    package var segment: String {
        switch self {
        case .tables: "Tables"
        case .table(let name): "Tables('\(AtomFormatter.keyLiteral(name))')"
        case .entities(let table): table
        case .entity(let table, let partitionKey, let rowKey):
            "\(table)(PartitionKey='\(AtomFormatter.keyLiteral(partitionKey))',RowKey='\(AtomFormatter.keyLiteral(rowKey))')"
        case .batch: "$batch"
        }
    }

    /// The absolute URL under `endpoint` (`https://account.table.core.windows.net`, or a path-style
    /// `http://127.0.0.1:10002/devstoreaccount1`).
    package func url(endpoint: String) -> String {
        (endpoint.hasSuffix("/") ? endpoint : endpoint + "/") + segment
    }

    /// Azure's answer to a URL it cannot read.
    package static var syntaxError: TableServiceError { .invalidInput("Bad Request - Error in query syntax.") }

    /// A table name as a URL carries it: letters and digits (Azure's rule, checked by the handler,
    /// is stricter; here only what cannot be a name is refused).
    private static func tableName(_ text: Substring) throws(TableServiceError) -> String {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { throw syntaxError }
        return String(text)
    }

    /// Reads `'…'` from the front of `text`, undoubling quotes.
    private static func literal(_ text: inout Substring) throws(TableServiceError) -> String {
        guard text.first == "'" else { throw syntaxError }
        var value = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if character == "'" {
                if index < text.endIndex, text[index] == "'" {
                    value.append("'")
                    index = text.index(after: index)
                } else {
                    text = text[index...]
                    return value
                }
            } else {
                value.append(character)
            }
        }
        throw syntaxError
    }
}
