import SpeakEasyFormats
import SpeakEasyModel
import SpeakEasyStorage

/// A remote table read straight into the JSON output: each page copied as the formatter would write
/// its entities (``JSONPageCopier``), on the task that read it, so that `export --store … --to x.json`
/// neither decodes every entity nor formats it on the one task that writes.
extension RepliesInJSON {
    func forEachFormattedPage(
        table: String,
        _ query: EntityQuery,
        parallel: Int,
        formatter: JSONFormatter,
        _ body: (JSONFormattedPage) throws -> Void
    ) async throws {
        let read: @Sendable (EntityQuery, ContinuationToken?, Int) async throws -> CopiedPage = { query, from, limit in
            let reply = try await self.queryReply(table: table, query, from: from, limit: limit)
            var copier = JSONPageCopier(formatter: formatter)
            return CopiedPage(
                page: try copier.copy(page: reply.body, decode: self.entities(inReply:)),
                next: reply.next
            )
        }
        try await forEachPage(table: table, query, parallel: parallel, reading: read) { try body($0.page) }
    }
}

/// A page copied for the output, with where its query goes on.
private struct CopiedPage: ScanPage {
    var page: JSONFormattedPage
    var next: ContinuationToken?

    var count: Int { page.count }
    func partitionKey(at index: Int) -> String { page.partitionKey(at: index) }
    func rowKey(at index: Int) -> String { page.rowKey(at: index) }
}
