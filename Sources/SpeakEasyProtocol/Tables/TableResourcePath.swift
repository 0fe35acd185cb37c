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
        // Read as bytes: every Table request's path passes here.
        var text = String(path)
        let raw = text.withUTF8 { bytes in
            [UInt8](bytes[((bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1)...])
        }
        guard let decoded = raw.withUnsafeBufferPointer(PercentEncoding.decode(utf8:)), !decoded.isEmpty else {
            throw Self.syntaxError
        }
        self = try Self.parse(Array(decoded.utf8))
    }

    private static func parse(_ segment: [UInt8]) throws(TableServiceError) -> TableResourcePath {
        if segment.elementsEqual("$batch".utf8) { return .batch }
        guard let open = segment.firstIndex(of: UInt8(ascii: "(")) else {
            return segment.elementsEqual("Tables".utf8) ? .tables : .entities(table: try tableName(segment[...]))
        }
        guard segment.last == UInt8(ascii: ")") else { throw syntaxError }
        let name = segment[..<open]
        var rest = segment[(open + 1)..<(segment.count - 1)]
        if name.elementsEqual("Tables".utf8) {
            let table = try literal(&rest)
            guard rest.isEmpty else { throw syntaxError }
            return .table(try tableName(table.utf8[...]))
        }
        let table = try tableName(name)
        if rest.isEmpty { return .entities(table: table) }
        var partitionKey: String?
        var rowKey: String?
        while !rest.isEmpty {
            rest = rest.drop { $0 == UInt8(ascii: " ") }
            guard let equals = rest.firstIndex(of: UInt8(ascii: "=")) else { throw syntaxError }
            var key = rest[..<equals]
            while key.last == UInt8(ascii: " ") { key.removeLast() }
            rest = rest[(equals + 1)...].drop { $0 == UInt8(ascii: " ") }
            if key.elementsEqual("PartitionKey".utf8), partitionKey == nil {
                partitionKey = try literal(&rest)
            } else if key.elementsEqual("RowKey".utf8), rowKey == nil {
                rowKey = try literal(&rest)
            } else {
                throw syntaxError
            }
            rest = rest.drop { $0 == UInt8(ascii: " ") }
            if rest.first == UInt8(ascii: ",") {
                rest = rest.dropFirst()
                guard !rest.isEmpty else { throw syntaxError }
            } else if !rest.isEmpty {
                throw syntaxError
            }
        }
        guard let partitionKey, let rowKey else { throw syntaxError }
        return .entity(table: table, partitionKey: partitionKey, rowKey: rowKey)
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
    private static func tableName<Bytes: Collection<UInt8>>(_ text: Bytes) throws(TableServiceError) -> String {
        let isAlphanumeric = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard !text.isEmpty, text.allSatisfy(isAlphanumeric) else { throw syntaxError }
        return String(decoding: text, as: UTF8.self)
    }

    /// Reads `'…'` from the front of `text`, undoubling quotes. The text came from a valid string and
    /// is cut only at ASCII quotes, so the value is valid UTF-8.
    private static func literal(_ text: inout ArraySlice<UInt8>) throws(TableServiceError) -> String {
        let quote = UInt8(ascii: "'")
        guard text.first == quote else { throw syntaxError }
        var value: [UInt8] = []
        var index = text.startIndex + 1
        while index < text.endIndex {
            let byte = text[index]
            index += 1
            if byte == quote {
                if index < text.endIndex, text[index] == quote {
                    value.append(quote)
                    index += 1
                } else {
                    text = text[index...]
                    return String(decoding: value, as: UTF8.self)
                }
            } else {
                value.append(byte)
            }
        }
        throw syntaxError
    }
}
