import SpeakEasyProtocol
package import SpeakEasyStorage

/// Get and Set Table ACL (`?comp=acl` on a table): its stored access policies, in the XML the
/// Blob service's container ACL has too.
extension AzureStorageAccount {
    package func tablePolicies(_ table: String) async throws -> [StoredAccessPolicy]? {
        let response = try await http.send(StorageRequest(.table, "GET", "/" + table, query: [("comp", "acl")]))
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw error(response, .table) }
        do {
            return try SignedIdentifiersXML.read(response.body)
        } catch {
            throw unreadable("table ACL", error.message)
        }
    }

    package func setTablePolicies(_ table: String, _ policies: [StoredAccessPolicy]) async throws {
        _ = try await send(
            StorageRequest(
                .table,
                "PUT",
                "/" + table,
                query: [("comp", "acl")],
                body: SignedIdentifiersXML.write(policies)
            )
        )
    }
}
