import SpeakEasyData
import Testing

/// A table's stored access policies (Get and Set Table ACL), on every backend alike.
@Suite("Storage conformance: table ACLs")
struct ConformanceTablePolicies {
    @Test(
        "policies are kept in order and replaced whole; a missing table has none to read and refuses a Set",
        arguments: ConformanceBackend.all
    )
    func policies(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let table = Conformance.table
            #expect(try await account.tablePolicies(table) == [])
            let policies = [
                StoredAccessPolicy(id: "readers", expiry: .at("2030-01-01T00:00:00Z"), permission: "r"),
                StoredAccessPolicy(id: "open"),
                StoredAccessPolicy(
                    id: "window",
                    start: .at("2029-01-01T00:00:00Z"),
                    expiry: .at("2029-02-01T00:00:00Z")
                ),
            ]
            try await account.setTablePolicies(table, policies)
            #expect(try await account.tablePolicies(table) == policies)
            try await account.setTablePolicies(table, [policies[1]])
            #expect(try await account.tablePolicies(table) == [policies[1]])
            #expect(try await account.tablePolicies("nosuchtable") == nil)
            let missing = await storageError { try await account.setTablePolicies("nosuchtable", policies) }
            #expect(missing?.reason == .notFound)
        }
    }
}
