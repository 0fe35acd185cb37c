import SpeakEasyModel
package import SpeakEasyStorage

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

    /// The token a response's headers carry, read with `header` (a case-insensitive lookup), for
    /// the client: the service's text kept to send back verbatim, and the keys it names when they
    /// can be read from it (ours, or Azure's `1!<length>!<base64>`; else the text stands for them).
    package static func token(header: (String) -> String?) -> ContinuationToken? {
        guard let partition = header(nextPartitionKeyHeader), !partition.isEmpty else { return nil }
        let row = header(nextRowKeyHeader)
        return ContinuationToken(
            partitionKey: keyOfServiceToken(partition),
            rowKey: row.map(keyOfServiceToken) ?? "",
            serviceText: ContinuationToken.ServiceText(nextPartitionKey: partition, nextRowKey: row)
        )
    }

    /// The query parameters that resume at `token`: the service's text when it has one, else the
    /// keys in our form (which `serve` and Azurite read; Azure itself needs its own tokens).
    package static func queryItems(for token: ContinuationToken) -> [(name: String, value: String)] {
        if let text = token.serviceText {
            return [("NextPartitionKey", text.nextPartitionKey)] + (text.nextRowKey.map { [("NextRowKey", $0)] } ?? [])
        }
        return [("NextPartitionKey", encode(token.partitionKey)), ("NextRowKey", encode(token.rowKey))]
    }

    /// The key a token names: Azure writes `1!<length>!<base64 of the key>` with `-` for padding.
    private static func keyOfServiceToken(_ text: String) -> String {
        let parts = text.split(separator: "!", maxSplits: 2, omittingEmptySubsequences: false)
        if parts.count == 3, parts[0] == "1", Int(parts[1]) == parts[2].utf8.count,
            let key = decode(String(parts[2].map { $0 == "-" ? "=" : $0 }))
        {
            return key
        }
        return decode(text) ?? text
    }

    /// The token of a request's `NextPartitionKey`/`NextRowKey` query parameters (already
    /// percent-decoded); 400 InvalidInput when they are not ours.
    package static func token(
        nextPartitionKey: String?,
        nextRowKey: String?
    ) throws(TableServiceError) -> ContinuationToken? {
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
