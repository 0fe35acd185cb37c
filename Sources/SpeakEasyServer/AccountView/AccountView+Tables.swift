import HTTPTypes
import SpeakEasyModel
import SpeakEasyProtocol
import SpeakEasyStorage
import SpeakEasyValidation

/// The tables: the account's first page, a table's partitions, a page of entities, one entity.
extension AccountView {
    struct PartitionRow {
        var partitionKey: String
        var entities: Int
        var href: String
    }

    struct TableSummary {
        var name: String
        var href: String
        var partitions: [PartitionRow]
        var hasPartitions: Bool
        var more: String?
    }

    /// `/`: every table with its first partitions and their counts, and every container.
    func home() async throws -> ServiceResponse {
        var tables: [TableSummary] = []
        for name in try await account.tableNames() {
            let page = try await account.partitionCounts(table: name, after: nil, limit: Self.partitionsOnHome)
            tables.append(
                TableSummary(
                    name: name,
                    href: AccountViewLink.table(name),
                    partitions: rows(page, table: name),
                    hasPartitions: !page.partitions.isEmpty,
                    more: page.next.map { AccountViewLink.table(name, after: $0) }
                )
            )
        }
        let containers = try await account.containerNames().map {
            AccountViewPage.Link(text: $0, href: AccountViewLink.container($0))
        }
        return AccountViewPage.render(
            .home,
            ["tables": tables, "containers": containers.map { ["name": $0.text, "href": $0.href] }],
            frame: AccountViewPage.Frame(title: account.accountName)
        )
    }

    /// `/table?name=T[&after=P]`: a page of the table's partitions with their counts.
    func partitions() async throws -> ServiceResponse {
        let name = try required("name")
        guard try await account.tableNames().contains(name) else { throw Self.noTable(name) }
        let page = try await account.partitionCounts(table: name, after: optional("after"), limit: Self.pageSize)
        var context: [String: Any] = [
            "name": name,
            "allHref": AccountViewLink.entities(table: name, partition: nil),
            "partitions": rows(page, table: name),
            "hasPartitions": !page.partitions.isEmpty,
        ]
        // Only when there is one: a key the context lacks is false to a section, and nothing else is.
        if let after = page.next { context["next"] = AccountViewLink.table(name, after: after) }
        return AccountViewPage.render(.partitions, context, frame: AccountViewPage.Frame(title: "Table \(name)"))
    }

    private func rows(_ page: PartitionCountPage, table: String) -> [PartitionRow] {
        page.partitions.map {
            PartitionRow(
                partitionKey: $0.partitionKey,
                entities: $0.entities,
                href: AccountViewLink.entities(table: table, partition: $0.partitionKey)
            )
        }
    }

    struct Column {
        var name: String
        var types: String
    }

    struct Cell {
        var text: String
        /// What keeps the app from reading this EventDate as Azure serves it (validate's words).
        var unreadable: String?
    }

    struct Row {
        var partitionKey: String
        var rowKey: String
        var timestamp: String
        var href: String
        var cells: [Cell]
    }

    /// `/entities?table=T[&partition=P][&$filter=F][&NextPartitionKey=…&NextRowKey=…]`: a page of
    /// entities in a grid, through the service's own query, continuation and `$filter` grammar.
    func entities() async throws -> ServiceResponse {
        let table = try required("table")
        let partition = query["partition"]
        let filterText = optional("$filter")
        var context: [String: Any] = [
            "table": table, "partition": partition ?? "", "hasPartition": partition != nil, "filter": filterText ?? "",
        ]
        let frame = AccountViewPage.Frame(
            title: partition.map { "Partition \($0)" } ?? "All entities of \(table)",
            crumbs: [AccountViewPage.Link(text: table, href: AccountViewLink.table(table))]
        )
        let page: EntityPage
        do {
            let filter = try filterText.map { text throws(FilterSyntaxError) in try EntityFilter(parsing: text) }
            let from = try TableContinuation.token(
                nextPartitionKey: query["NextPartitionKey"],
                nextRowKey: query["NextRowKey"]
            )
            page = try await account.query(
                table: table,
                EntityQuery(partition: partition, filter: filter),
                from: from,
                limit: Self.pageSize
            )
        } catch {
            // Shown as the Table service answers it, with the form kept for a correction.
            guard let wire = TableService.wireError(error) as? TableServiceError else { throw error }
            if wire.code == "TableNotFound" { throw Self.noTable(table) }
            context["problem"] = "\(wire.status) \(wire.code): \(wire.message)"
            return AccountViewPage.render(.entities, context, frame: frame, status: .init(code: wire.status))
        }
        let columns = Self.columns(of: page.entities)
        context["columns"] = columns.map {
            Column(name: $0.name, types: $0.types.map(\.rawValue).joined(separator: ", "))
        }
        context["rows"] = page.entities.map { entity in
            let values = Dictionary(
                entity.properties.map { ($0.name, $0.value) },
                uniquingKeysWith: { first, _ in first }
            )
            return Row(
                partitionKey: entity.partitionKey,
                rowKey: entity.rowKey,
                timestamp: entity.timestamp?.description ?? "",
                href: AccountViewLink.entity(table: table, partitionKey: entity.partitionKey, rowKey: entity.rowKey),
                cells: columns.map { column in
                    guard let value = values[column.name] else { return Cell(text: "") }
                    return Cell(text: Self.excerpt(value.description), unreadable: Self.dateProblem(column.name, value))
                }
            )
        }
        context["rowCount"] = page.entities.count
        if let next = page.next {
            context["next"] = AccountViewLink.entities(
                table: table,
                partition: partition,
                filter: filterText,
                from: TableContinuation.queryItems(for: next)
            )
        }
        return AccountViewPage.render(.entities, context, frame: frame)
    }

    /// The page's properties in the order they first appear, each with every Edm type it has here.
    static func columns(of entities: [Entity]) -> [(name: String, types: [EdmType])] {
        var columns: [(name: String, types: [EdmType])] = []
        var index: [String: Int] = [:]
        for entity in entities {
            for property in entity.properties {
                if let at = index[property.name] {
                    if !columns[at].types.contains(property.value.type) {
                        columns[at].types.append(property.value.type)
                    }
                } else {
                    index[property.name] = columns.count
                    columns.append((property.name, [property.value.type]))
                }
            }
        }
        return columns
    }

    /// A grid cell's text: long values (a speaker's bio, a binary) cut, whole on the entity's page.
    static func excerpt(_ text: String) -> String {
        text.count <= 160 ? text : String(text.prefix(160)) + "…"
    }

    /// validate's finding on an EventDate the app cannot read as Azure serves it, in validate's words.
    static func dateProblem(_ name: String, _ value: EdmValue) -> String? {
        guard name == "EventDate", case .dateTime(let date) = value else { return nil }
        return Validator.servedDateProblem(date, check: .app)
    }

    struct PropertyRow {
        struct Problem {
            var rule: String
            var message: String
        }
        var name: String
        var type: String
        var lexical: String
        /// A date's form as Azure serves it, trailing fractional zeros trimmed, when it differs.
        var served: String?
        var problem: Problem?
    }

    /// `/entity?table=T&PartitionKey=P&RowKey=R`: every property, its type and its lexical form.
    func entity() async throws -> ServiceResponse {
        let table = try required("table")
        let partitionKey = try required("PartitionKey")
        let rowKey = try required("RowKey")
        let entity: Entity
        switch try await account.lookUpEntity(table: table, partitionKey: partitionKey, rowKey: rowKey) {
        case .found(let found): entity = found
        case .noSuchTable: throw Self.noTable(table)
        case .noSuchEntity:
            throw AccountViewError(.notFound, "Table \(table) holds no entity with these keys.")
        }
        let properties = entity.properties.map { property in
            var served: String?
            if case .dateTime(let date) = property.value {
                let trimmed = date.formattedTrimmed()
                if trimmed != property.value.description { served = trimmed }
            }
            return PropertyRow(
                name: property.name,
                type: property.value.type.rawValue,
                lexical: property.value.description,
                served: served,
                problem: Self.dateProblem(property.name, property.value).map {
                    PropertyRow.Problem(rule: Rule.datesFormat.id, message: $0)
                }
            )
        }
        return AccountViewPage.render(
            .entity,
            [
                "partitionKey": entity.partitionKey, "rowKey": entity.rowKey,
                "timestamp": entity.timestamp?.description ?? "", "etag": entity.etag ?? "", "properties": properties,
            ],
            frame: AccountViewPage.Frame(
                title: "Entity \(rowKey)",
                crumbs: [
                    AccountViewPage.Link(text: table, href: AccountViewLink.table(table)),
                    AccountViewPage.Link(
                        text: partitionKey,
                        href: AccountViewLink.entities(table: table, partition: partitionKey)
                    ),
                ]
            )
        )
    }

    static func noTable(_ name: String) -> AccountViewError {
        AccountViewError(.notFound, "The account has no table \(name).")
    }
}
