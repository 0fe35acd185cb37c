import SpeakEasyCore
import SpeakEasyModel
import SpeakEasyProtocol
import SpeakEasyStorage
import Synchronization

/// Tables: Create Table (a 409 is "there already"), Query Tables with its continuation, Delete Table,
/// and emptying a table, which Azure has no single request for.
extension AzureStorageAccount {
    /// The headers of every Table request: JSON with the types annotated, and the OData version that has it.
    static let tableHeaders: [(name: String, value: String)] = [
        ("Accept", "application/json;odata=minimalmetadata"), ("DataServiceVersion", "3.0"),
        ("MaxDataServiceVersion", "3.0;NetFx"),
    ]

    @discardableResult
    package func createTableIfNotExists(_ table: String) async throws -> Bool {
        guard !known.withLock({ $0.tables.contains(table) }) else { return false }
        let response = try await http.send(
            StorageRequest(
                .table,
                "POST",
                "/Tables",
                headers: Self.tableHeaders + [("Content-Type", "application/json"), ("Prefer", "return-no-content")],
                body: TableJSONReader.createTableBody(table)
            )
        )
        let failure = (200..<300).contains(response.status) ? nil : error(response, .table)
        if failure == nil || failure?.code == "TableAlreadyExists" {
            known.withLock { _ = $0.tables.insert(table) }
            return failure == nil
        }
        guard let failure else { return true }
        if failure.code == "TableBeingDeleted" {
            throw StorageError(
                .busy,
                account: accountName,
                "table '\(table)' is being deleted: Azure needs a minute or so before the name is free",
                code: failure.code
            )
        }
        throw failure
    }

    package func tableNames() async throws -> [String] {
        var names: [String] = []
        var next: String?
        repeat {
            let response = try await send(
                StorageRequest(
                    .table,
                    "GET",
                    "/Tables",
                    query: next.map { [("NextTableName", $0)] } ?? [],
                    headers: Self.tableHeaders
                )
            )
            do {
                names += try TableJSONReader.tableNames(response.body)
            } catch {
                throw unreadable("table list", error)
            }
            next = response.header(TableContinuation.nextTableNameHeader).flatMap { $0.isEmpty ? nil : $0 }
        } while next != nil
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    package func deleteTable(_ table: String) async throws {
        known.withLock { _ = $0.tables.remove(table) }
        _ = try await send(
            StorageRequest(.table, "DELETE", "/" + TableResourcePath.table(table).segment, headers: Self.tableHeaders)
        )
    }

    /// Reads the keys a page at a time and deletes each page in transactions, `parallel` at once. An
    /// entity deleted meanwhile by someone else is no error.
    package func deleteAllEntities(table: String) async throws {
        var from: ContinuationToken?
        repeat {
            let page = try await queryPage(
                table: table,
                filter: nil,
                select: ["PartitionKey", "RowKey"],
                from: from,
                limit: 1000
            )
            let keys = page.entities.map {
                EncodedEntity(partitionKey: $0.partitionKey, rowKey: $0.rowKey, properties: [])
            }
            try await forEachConcurrently(TransactionGroups.split(keys), limit: parallel) { group in
                try await self.deleteGroup(group, table: table)
            }
            from = page.next
        } while from != nil
    }

    /// Deletes the group's entities in one transaction; when one is gone already, the others again
    /// without it.
    private func deleteGroup(_ group: [EncodedEntity], table: String) async throws {
        var remaining = group
        while !remaining.isEmpty {
            do {
                _ = try await transact(remaining.map { EntityOperation(.delete(ifMatch: "*"), $0) }, table: table)
                return
            } catch let error as StorageError
                where error.reason == .notFound && error.operationIndex.map(remaining.indices.contains) == true
            {
                remaining.remove(at: error.operationIndex!)
            }
        }
    }
}
