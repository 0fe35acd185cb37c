package import SpeakEasyStorage
import SpeakEasyModel

/// Continuation between pages of a query, carried in headers (never in the body): the server names
/// the next entity in `x-ms-continuation-NextPartitionKey`/`NextRowKey` (or the next table in
/// `NextTableName`), and the client sends them back as query parameters of the same names.
///
/// Tokens are opaque to clients. Ours are Azurite's: the key's UTF-8 in base64, which carries any
/// key through a header and a query string without escaping trouble.
package enum TableContinuation {
    package static let nextPartitionKeyHeader = "x-ms-continuation-NextPartitionKey"
    package static let nextRowKeyHeader = "x-ms-continuation-NextRowKey"
    package static let nextTableNameHeader = "x-ms-continuation-NextTableName"

    /// The headers that announce `token` (none at the end of the results).
    package static func headers(for token: ContinuationToken?) -> [(name: String, value: String)] {
        guard let token else { return [] }
        return [(nextPartitionKeyHeader, encode(token.partitionKey)), (nextRowKeyHeader, encode(token.rowKey))]
    }

    /// The token a response's headers carry, read with `header` (a case-insensitive lookup).
    package static func token(header: (String) -> String?) -> ContinuationToken? {
        guard let partition = header(nextPartitionKeyHeader), !partition.isEmpty,
            let partitionKey = decode(partition)
        else { return nil }
        return ContinuationToken(partitionKey: partitionKey, rowKey: header(nextRowKeyHeader).flatMap(decode) ?? "")
    }

    /// The token of a request's `NextPartitionKey`/`NextRowKey` query parameters (already
    /// percent-decoded); 400 InvalidInput when they are not ours.
    package static func token(nextPartitionKey: String?, nextRowKey: String?) throws(TableServiceError) -> ContinuationToken? {
        guard let nextPartitionKey, !nextPartitionKey.isEmpty else { return nil }
        guard let partitionKey = decode(nextPartitionKey), let rowKey = nextRowKey.map(decode) ?? "" else {
            throw .invalidInput("The continuation token is not valid.")
        }
        return ContinuationToken(partitionKey: partitionKey, rowKey: rowKey)
    }

    package static func encode(_ key: String) -> String { Base64.encode(Array(key.utf8)) }

    package static func decode(_ token: String) -> String? {
        Base64.decode(token).flatMap { String(validating: $0, as: UTF8.self) }
    }
}
