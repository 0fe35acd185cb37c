import SpeakEasyData
import Testing

/// Paging as the protocol defines it is in the conformance suite
/// (`Storage/Conformance/ConformancePaging.swift`); this is how the local account does it.
@Suite("SQLite storage account: paging")
struct SQLitePagingTests {
    /// Every page must read the key index in order from the resume point. A plan that sorts ("TEMP
    /// B-TREE") or scans would make a scan of a million entities quadratic.
    @Test("each page query seeks on the key index and needs no sort", arguments: [(false, false), (false, true), (true, false), (true, true)])
    func pageQueryPlans(partition: Bool, resuming: Bool) async throws {
        try await withStore { _, path in
            let raw = try RawSQLite(path: path)
            let plan = try raw.rows("EXPLAIN QUERY PLAN " + SQLiteScan.sql(partition: partition, resuming: resuming)).compactMap { $0.last ?? nil }
            #expect(plan.count == 1, "\(plan)")
            #expect(plan.allSatisfy { $0.contains("SEARCH entities USING INDEX sqlite_autoindex_entities_1") }, "\(plan)")
            #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        }
    }
}
