import Foundation
import SpeakEasyData
import SpeakEasyServer
import TestServer
import TestSupport
import Testing

/// `serve`'s Table service judged by azure-data-tables 12.7.0 (python/serve_tables_sdk.py): the SDK
/// signs, sends and reads every request itself, against a server paging queries 7 entities at a time.
@Suite("serve judged by azure-data-tables", .enabled(if: PythonSDK.enabled, PythonSDK.howToEnable))
struct ServeTablesSDKTests {
    @Test(
        "tables, every Edm type, merge and replace, ETags, batches, filters over every literal, paging, select, keys and SAS"
    )
    func tablesSDK() async throws {
        try await withRunningServer(
            configure: { $0.pageSize = 7 },
            { server in
                let endpoint = "http://127.0.0.1:\(server.port(.table))/\(DevelopmentAccount.name)"
                let output = try await offPool { try PythonSDK.run("serve_tables_sdk.py", [endpoint]) }
                let seen = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [String: Any])
                func value(_ key: String) -> String { seen[key].map { "\($0)" } ?? "absent" }
                #expect(value("duplicate_table") == "TableAlreadyExists")
                let typed = try #require(seen["typed"] as? [String: [String]])
                #expect(typed["String"] == ["str", #""O'Brien — ünïcode""#])
                #expect(typed["Int32"] == ["int", "42"])
                #expect(
                    typed["Int64"] == ["Edm.Int64", "9007199254740993"],
                    "an Int64 beyond a double's precision stays exact"
                )
                #expect(typed["Double"] == ["float", "2.5"])
                #expect(typed["WholeDouble"] == ["float", "10.0"])
                #expect(typed["Bool"] == ["bool", "True"])
                #expect(typed["Date"] == ["TablesEntityDatetime", "2026-07-01T04:34:00.123456+00:00"])
                #expect(typed["Guid"] == ["UUID", "UUID('c9da6455-213d-42c9-9a79-3e9149a57833')"])
                #expect(typed["Binary"] == ["bytes", #"b'\x00\x01\xfe\xff'"#])
                #expect(seen["typed_date_exact"] as? Bool == true)
                #expect(seen["typed_etag"] as? Bool == true)
                #expect(seen["merge_kept"] as? Bool == true)
                #expect(seen["replace_dropped"] as? [String] == ["Only", "PartitionKey", "RowKey"])
                #expect(value("stale_etag") == "UpdateConditionNotSatisfied")
                #expect(value("duplicate_entity") == "EntityAlreadyExists")
                #expect(seen["batch_count"] as? Int == 100)
                #expect(
                    (seen["batch_failure"] as? [Any]).map { "\($0)" } == #"[3, "EntityAlreadyExists"]"#,
                    "the failing operation's index"
                )
                #expect(seen["batch_rolled_back"] as? Bool == true)
                let filters = try #require(seen["filters"] as? [String: [Int]])
                #expect(filters.count == 11)
                for (name, counts) in filters {
                    #expect(counts[0] == counts[1], "filter \(name): \(counts[0]) matches, expected \(counts[1])")
                }
                #expect(seen["page_sizes"] as? [Int] == [7, 7, 7, 7, 2])
                #expect(seen["select"] as? [String] == ["I", "PartitionKey", "RowKey", "S"])
                #expect(seen["tables"] as? [String] == ["speakers"])
                #expect(seen["table_filter"] as? [String] == ["speakers"])
                #expect(value("missing_entity") == "ResourceNotFound")
                #expect((seen["function_filter"] as? [Any]).map { "\($0)" } == #"[501, "NotImplemented"]"#)
                #expect(value("wrong_key") == "AuthenticationFailed")
                #expect(seen["sas_read"] as? Int == 100)
                #expect(value("sas_write") == "AuthorizationPermissionMismatch")
                #expect(seen["deleted"] as? Int == 0)
                #expect(seen["tables_after"] as? [String] == [])
            }
        )
    }
}
