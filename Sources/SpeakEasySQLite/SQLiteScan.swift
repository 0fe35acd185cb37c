import SpeakEasyModel
package import SpeakEasyStorage

/// A scan of a table in key order for one page of a query: the statement, and where the next page
/// starts.
///
/// Only the conditions that apply, each matching the key index exactly, so SQLite seeks straight to
/// the resume point and reads the index in order: no `?3 IS NULL OR …` (a scan from the table's start)
/// and, within a partition, no row-value comparison (which would sort everything after the resume
/// point on every page). The filter's comparisons of the key the index seeks on (RowKey within one
/// partition, PartitionKey otherwise) bound the seek; its other comparisons of a key are a column of
/// the row, checked here, with the row's other columns read only when they hold, so a query for
/// "every partition but two" does not read the two. The filter is still checked whole on each entity.
///
/// A page passes over at most ``skipBudget`` rows that the filter leaves out, then ends where it
/// stopped, with a continuation: Azure stops a query after five seconds and answers what it found,
/// perhaps nothing. Without the bound, a filter that matches little (on a property, which no index
/// holds) read the whole table before answering: 10,000,000 entities, a minute of silence.
package final class SQLiteScan {
    /// Rows a page may pass over (left out by the filter) before it ends: tens of milliseconds of
    /// work, where a page of entities is a millisecond or two; a page of matches is never cut short.
    package static let skipBudget = 20_000

    let statement: SQLiteStatement
    /// Set once the rows ran out: stepping again would start the statement over.
    private var finished = false
    /// Set once the page passed over ``skipBudget`` rows.
    private var exhausted = false
    private var skipped = 0
    /// The column that says whether the row meets the key conditions the seek does not; nil when
    /// there are none.
    private let matchColumn: Int32?

    /// Selects the keys, then `columns` (a comma-separated list).
    init(
        _ connection: SQLiteConnection,
        table: String,
        query: EntityQuery,
        from: ContinuationToken?,
        columns: String
    ) throws(SQLiteError) {
        let partition = Self.partition(of: query, resumingAt: from)
        let keyConditions = Self.keyConditions(query.filter, partition: partition)
        let seek = keyConditions.filter(\.seeks)
        let checked = keyConditions.filter { !$0.seeks }
        statement = try connection.prepare(
            Self.sql(
                partition: partition != nil,
                resuming: from != nil,
                keyConditions: seek.map(\.sql),
                checkedConditions: checked.map(\.sql),
                columns: columns
            )
        )
        statement.bind(1, table)
        if let partition { statement.bind(2, partition) }
        if let from {
            if partition == nil { statement.bind(3, from.partitionKey) }
            statement.bind(4, from.rowKey)
        }
        for (index, condition) in (seek + checked).enumerated() {
            statement.bind(Int32(5 + index), condition.value)
        }
        matchColumn = checked.isEmpty ? nil : Int32(2 + columns.split(separator: ",").count)
    }

    /// The one partition the scan reads: the query's, or the one a filter's top-level `PartitionKey eq
    /// '…'` names (a query over HTTP says it only so) when the scan starts or resumes inside it. Without
    /// it, a page resumed inside that partition would compare row values and sort the rest of the table.
    package static func partition(of query: EntityQuery, resumingAt from: ContinuationToken?) -> String? {
        if let partition = query.partition { return partition }
        for conjunct in query.filter?.conjuncts ?? [] {
            guard case .comparison("PartitionKey", .eq, .string(let value)) = conjunct else { continue }
            // A token outside the partition keeps the general form: it may resume before it, or after.
            return from.map { $0.partitionKey.utf8.elementsEqual(value.utf8) } ?? true ? value : nil
        }
        return nil
    }

    /// Moves to the next row that meets the key conditions; false at the end, or once the page has
    /// passed over its budget of rows.
    func step() throws(SQLiteError) -> Bool {
        while !finished, !exhausted {
            guard try statement.step() else {
                finished = true
                return false
            }
            if let matchColumn, statement.int64(matchColumn) == 0 {
                skip()
                continue
            }
            return true
        }
        return false
    }

    /// Counts a row passed over: one the caller's filter left out, or one of the key conditions.
    func skip() {
        skipped += 1
        if skipped >= Self.skipBudget { exhausted = true }
    }

    /// A page of at most `limit` items: each row made into one by `item`, which returns nil for a row
    /// the filter leaves out. Ends the scan.
    func page<Item>(limit: Int, item: (SQLiteStatement) throws -> Item?) throws -> QueryPage<Item> {
        var items: [Item] = []
        let next = try rows(limit: limit) { statement in
            guard let item = try item(statement) else { return false }
            items.append(item)
            return true
        }
        return QueryPage(entities: items, next: next)
    }

    /// Hands each row to `take` until it took `limit` of them (it returns false for a row the filter
    /// leaves out); then where the next page starts. Ends the scan.
    func rows(limit: Int, take: (SQLiteStatement) throws -> Bool) throws -> ContinuationToken? {
        var taken = 0
        while taken < limit, try step() {
            if try take(statement) { taken += 1 } else { skip() }
        }
        return try next()
    }

    /// Where the next page starts, nil at the end: the next row that meets the key conditions, or,
    /// when the budget ran out, the row after the last one passed over (whatever it holds). Ends the
    /// scan.
    func next() throws(SQLiteError) -> ContinuationToken? {
        defer { statement.reset() }
        var more = try step()
        if !more, !finished { more = try statement.step() }
        guard more else { return nil }
        return ContinuationToken(partitionKey: statement.text(0), rowKey: statement.text(1))
    }

    /// The page's statement: `keyConditions` bound the seek (parameters from ?5 on), and
    /// `checkedConditions` (the parameters after them) are a last column, 1 when they all hold, which
    /// guards the other columns so that a row they leave out is read from the key index alone.
    package static func sql(
        partition: Bool,
        resuming: Bool,
        keyConditions: [String] = [],
        checkedConditions: [String] = [],
        columns: String = "timestamp, etag, properties"
    ) -> String {
        var conditions = "table_name = ?1"
        if partition { conditions += " AND partition_key = ?2" }
        if resuming { conditions += partition ? " AND row_key >= ?4" : " AND (partition_key, row_key) >= (?3, ?4)" }
        for condition in keyConditions { conditions += " AND " + condition }
        var selected = columns
        if !checkedConditions.isEmpty {
            let holds = "(" + checkedConditions.joined(separator: " AND ") + ")"
            selected =
                columns.split(separator: ",").map { "CASE WHEN \(holds) THEN \($0.trimmingPrefix(" ")) END" }
                .joined(separator: ", ") + ", " + holds
        }
        return """
            SELECT partition_key, row_key, \(selected) FROM entities
            WHERE \(conditions) ORDER BY table_name, partition_key, row_key
            """
    }

    /// Whether the statement's conditions are the whole filter, so that every row it gives meets it:
    /// the filter is nothing but comparisons of a key with a string, each of them one of
    /// ``keyConditions(_:partition:)`` or the partition the scan reads.
    package static func statementCoversFilter(_ filter: EntityFilter?) -> Bool {
        (filter?.conjuncts ?? []).allSatisfy { conjunct in
            guard case .comparison(let property, _, .string) = conjunct else { return false }
            return property == "PartitionKey" || property == "RowKey"
        }
    }

    /// The filter's top-level comparisons of a key with a string, as SQL (`?` and a placeholder for
    /// the parameter's number). SQLite compares TEXT bytewise, as the filter compares strings. A
    /// condition `seeks` when the key index can start or stop at it: a comparison other than `ne` of
    /// the RowKey within `partition`, or of the PartitionKey across partitions. Any other, SQLite
    /// would check on every row it passes, however many: those are checked by the scan instead.
    private static func keyConditions(
        _ filter: EntityFilter?,
        partition: String?
    ) -> [(sql: String, value: String, seeks: Bool)] {
        var conditions: [(column: String, op: String, value: String, seeks: Bool)] = []
        for conjunct in filter?.conjuncts ?? [] {
            guard case .comparison(let property, let op, .string(let value)) = conjunct else { continue }
            let column: String
            switch property {
            case "PartitionKey": column = "partition_key"
            case "RowKey": column = "row_key"
            default: continue
            }
            let sqlOperator =
                switch op {
                case .eq: "="
                case .ne: "<>"
                case .gt: ">"
                case .ge: ">="
                case .lt: "<"
                case .le: "<="
                }
            // The partition the scan reads is already a condition (the same bytes: `==` of Strings
            // would take a canonically equivalent spelling for it).
            if column == "partition_key", op == .eq, let partition, value.utf8.elementsEqual(partition.utf8) {
                continue
            }
            let seeks = op != .ne && column == (partition != nil ? "row_key" : "partition_key")
            conditions.append((column, sqlOperator, value, seeks))
        }
        // Numbered in the order they are bound: those that seek, then the others.
        let ordered = conditions.filter(\.seeks) + conditions.filter { !$0.seeks }
        return ordered.enumerated().map { index, condition in
            ("\(condition.column) \(condition.op) ?\(5 + index)", condition.value, condition.seeks)
        }
    }
}
