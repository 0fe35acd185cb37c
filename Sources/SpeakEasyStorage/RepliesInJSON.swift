package import SpeakEasyModel

/// An account whose Query Entities replies are Azure's JSON (minimal metadata): a reader that writes
/// that JSON may take a page as it came and copy what it can (``JSONPageCopier``), where
/// ``StorageAccount/query(table:_:from:limit:)`` decodes every entity into values.
package protocol RepliesInJSON: StorageAccount {
    /// The body of the reply to the request ``StorageAccount/query(table:_:from:limit:)`` sends, and
    /// where the query goes on.
    func queryReply(
        table: String,
        _ query: EntityQuery,
        from: ContinuationToken?,
        limit: Int
    ) async throws -> (body: [UInt8], next: ContinuationToken?)
    /// The entities of such a body, read as ``StorageAccount/query(table:_:from:limit:)`` reads
    /// them: a body it cannot read is the same error.
    func entities(inReply body: [UInt8]) throws -> [Entity]
}
