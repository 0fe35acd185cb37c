import SpeakEasyModel
package import SpeakEasyStorage

/// A scan of a table in key order for one page of a query: the statement, and where the next page
/// starts.
///
/// Only the conditions that apply, each matching the key index exactly, so SQLite seeks straight to
/// the resume point and reads the index in order: no `?3 IS NULL OR …` (a scan from the table's start)
/// and, within a partition, no row-value comparison (which would sort everything after the resume
/// point on every page). Conditions of the filter on the keys are pushed down too, so a query for
/// "every partition but two" does not read the two; the filter is still checked whole on each entity.
package final class SQLiteScan {
    let statement: SQLiteStatement
    /// Set once the rows ran out: stepping again would start the statement over.
    private var finished = false

    /// Selects the keys, then `columns`.
    init(
        _ connection: SQLiteConnection,
        table: String,
        query: EntityQuery,
        from: ContinuationToken?,
        columns: String
    ) throws(SQLiteError) {
        let keyConditions = Self.keyConditions(query.filter)
        let partition = Self.partition(of: query, resumingAt: from)
        statement = try connection.prepare(
            Self.sql(
                partition: partition != nil,
                resuming: from != nil,
                keyConditions: keyConditions.map(\.sql),
                columns: columns
            )
        )
        statement.bind(1, table)
        if let partition { statement.bind(2, partition) }
        if let from {
            if partition == nil { statement.bind(3, from.partitionKey) }
            statement.bind(4, from.rowKey)
        }
        for (index, condition) in keyConditions.enumerated() { statement.bind(Int32(5 + index), condition.value) }
    }

    /// The one partition the scan reads: the query's, or the one a filter's top-level `PartitionKey eq
    /// '…'` names (a query over HTTP says it only so) when the scan starts or resumes inside it. Without
    /// it, a page resumed inside that partition would compare row values and sort the rest of the table.
    package static func partition(of query: EntityQuery, resumingAt from: ContinuationToken?) -> String? {
        if let partition = query.partition { return partition }
        for conjunct in query.filter?.conjuncts ?? [] {
            guard case .comparison("PartitionKey", .eq, .string(let value)) = conjunct else { continue }
            // A token outside the partition keeps the general form: it may resume before it, or after.
            return from == nil || from?.partitionKey == value ? value : nil
        }
        return nil
    }

    /// Moves to the next row; false at the end.
    func step() throws(SQLiteError) -> Bool {
        guard !finished else { return false }
        finished = try !statement.step()
        return !finished
    }

    /// The keys of the row after the page, where the next page starts; nil at the end. Ends the scan.
    func next() throws(SQLiteError) -> ContinuationToken? {
        defer { statement.reset() }
        return try step() ? ContinuationToken(partitionKey: statement.text(0), rowKey: statement.text(1)) : nil
    }

    package static func sql(
        partition: Bool,
        resuming: Bool,
        keyConditions: [String] = [],
        columns: String = "timestamp, etag, properties"
    ) -> String {
        var conditions = "table_name = ?1"
        if partition { conditions += " AND partition_key = ?2" }
        if resuming { conditions += partition ? " AND row_key >= ?4" : " AND (partition_key, row_key) >= (?3, ?4)" }
        for condition in keyConditions { conditions += " AND " + condition }
        return """
            SELECT partition_key, row_key, \(columns) FROM entities
            WHERE \(conditions) ORDER BY table_name, partition_key, row_key
            """
    }

    /// The filter's top-level comparisons of a key with a string, as SQL (parameters from ?5 on).
    /// SQLite compares TEXT bytewise, as the filter compares strings.
    private static func keyConditions(_ filter: EntityFilter?) -> [(sql: String, value: String)] {
        var conditions: [(sql: String, value: String)] = []
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
            conditions.append(("\(column) \(sqlOperator) ?\(5 + conditions.count)", value))
        }
        return conditions
    }
}
