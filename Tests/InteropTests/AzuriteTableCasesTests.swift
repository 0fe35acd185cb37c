import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// Azurite's own Table test cases, ported (python/azurite_table_cases.py), run against `serve` with
/// azure-data-tables and raw requests signed by its account SAS. Where Azurite's expectation is less
/// certain, the answer decided here names its source.
@Suite("serve judged by Azurite's Table cases", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct AzuriteTableCasesTests {
    @Test(
        "malformed ETags, empty filters, $top=0, versions, table-name case, refused batch operations, literals and ranges"
    )
    func azuriteCases() async throws {
        try await withRunningServer { server in
            let endpoint = "http://127.0.0.1:\(server.port(.table))/\(DevelopmentAccount.name)"
            let output = try await offPool { try PythonSDK.run("azurite_table_cases.py", [endpoint]) }
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any])
            func json(_ key: String) throws -> String {
                String(
                    decoding: try JSONSerialization.data(
                        withJSONObject: try #require(seen[key]),
                        options: [.sortedKeys]
                    ),
                    as: UTF8.self
                )
            }
            func expect(_ key: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
                let actual = try json(key)
                #expect(actual == expected, "\(key): \(actual)", sourceLocation: sourceLocation)
            }

            // Names Azure refuses, and names that contain another's (table.validation.rest.test.ts).
            let names = try #require(seen["table_names"] as? [String: [Any]])
            for name in ["this-should-not-work!", "1abc", String(repeating: "a", count: 64), "ab", "tables"] {
                #expect(names[name].map { "\($0)" } == "\([400, "InvalidResourceName"] as [Any])", "\(name)")
            }
            #expect(names["azuritecasesx"]?.first as? Int == 201 && names["azuritecase"]?.first as? Int == 201)
            try expect("table_names_deleted", "[[200,null],[200,null]]")
            try expect("table_names_left", #"["azuritecases"]"#)

            // A malformed If-Match is 400 InvalidInput, not 412, on delete and on merge (Azurite #730,
            // #1829, #2013), and nothing is deleted.
            let refused = #"[[400,"InvalidInput"],[400,"InvalidInput"]]"#
            try expect("malformed_etag", #"{"\"":\#(refused),"MalformedEtag":\#(refused),"wrong":\#(refused)}"#)
            #expect(seen["still_there"] as? Int == 5)

            // An empty $filter filters nothing (Azurite #1573, #1880, #2450); `true` and `false` alone are filters.
            try expect("empty_filter_entities", "[200,5]")
            try expect("empty_filter_tables", #"[200,["azuritecases"]]"#)
            #expect(seen["true_filter"] as? Int == 5)
            #expect(seen["false_filter"] as? Int == 0)
            // $top=0 is an empty page, not 400 (Azurite #1428, the query Storage Explorer sends).
            try expect("top_zero", "[200,0]")
            // An unknown x-ms-version is refused before anything is done (the table is not created).
            try expect("invalid_version", #"[400,"InvalidHeaderValue",false]"#)

            // Table names are case-insensitive: MYTABLE deletes MyTable; AZURITECASES exists already.
            try expect("delete_other_case", "[200,null]")
            try expect("tables_after_delete", #"["azuritecases"]"#)
            try expect("create_other_case", #"[409,"TableAlreadyExists"]"#)

            // A refused operation comes back inside the 202, so the SDK raises TableTransactionError
            // with its index (its _base_client._batch_send); nothing of the batch is written.
            try expect("batch_slash_in_key", #"[400,"OutOfRangeInput",1]"#)
            try expect("batch_101", #"[400,"InvalidInput",100]"#)
            #expect(seen["batch_nothing_written"] as? Int == 0)

            // Decided against Azurite's case 09 (table.entity.query.test.ts), which expects a Double 5
            // to match the Int32 literal 5: Microsoft's "Querying tables and entities" says "The
            // constant value must be of the same data type as the property in order for the filter
            // to return valid results", so only 5.0 matches.
            try expect(
                "double_vs_int",
                #"{"doubleField eq 5":0,"doubleField eq 5.0":1,"doubleField gt 4":0,"doubleField lt 6":0}"#
            )
            // The same page: "All parts of the filter string are case-sensitive", so `True` and
            // `FALSE` are no Boolean literals, and the filter is refused.
            let literals = try #require(seen["boolean_literals"] as? [String: Any])
            #expect(literals["true"] as? Int == 1)
            #expect(literals["True"].map { "\($0)" } == "\([400, "InvalidInput"] as [Any])")
            #expect(literals["FALSE"].map { "\($0)" } == "\([400, "InvalidInput"] as [Any])")

            // Get Table Service Properties answers Azurite's defaults until a Set; a Set changes what it
            // names and keeps the rest (table.service.test.ts; the REST reference); a document
            // without what an element needs is 400 InvalidXmlDocument.
            try expect(
                "service_properties_default",
                #"{"cors":[],"logging":[true,true,true,false,null],"minute_metrics":[false,false]}"#
            )
            try expect(
                "service_properties_set",
                #"{"cors":[[["https:\/\/speakeasy.example"],["GET","PUT"],60]],"logging":[true,false,true,true,5],"minute_metrics":[false,false]}"#
            )
            try expect(
                "service_properties_cors_cleared",
                #"{"cors":[],"logging":[true,false,true,true,5],"minute_metrics":[false,false]}"#
            )
            try expect("service_properties_invalid", #"[400,"InvalidXmlDocument"]"#)

            // Set and Get Table ACL (issue 28: set_table_access_policy got 501); a table SAS naming a
            // stored policy (si) reads with the policy's permission and expiry, cannot write, is
            // refused when it repeats what the policy gives ("Create a service SAS"), and is revoked
            // with the policy. No SAS may read the ACL: "only the account owner may call this operation".
            try expect("table_acl", #"[["empty",null],["readers","r"]]"#)
            try expect("si_read", "[200,null]")
            try expect("si_write", #"[403,"AuthorizationPermissionMismatch"]"#)
            try expect("si_doubled", #"[403,"AuthenticationFailed"]"#)
            try expect("si_revoked", #"[403,"AuthenticationFailed"]"#)
            try expect("table_acl_sas", #"[403,"AuthorizationFailure"]"#)

            // A Double past the largest is 400 InvalidInput (Azurite's EdmDouble.validate: "Test on both
            // Product server and Azurite, they are aligned", issue #2387); the largest itself is kept.
            // An Int64 past 2^63 - 1 is taken to be refused alike.
            try expect("double_too_large", #"[400,"InvalidInput"]"#)
            try expect("double_largest", "[201,null]")
            try expect("int64_too_large", #"[400,"InvalidInput"]"#)
            try expect("int64_largest", "[201,null]")
        }
    }
}
