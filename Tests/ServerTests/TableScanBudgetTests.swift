import Foundation
import SpeakEasyData
import TestServer
import TestSupport
import Testing

/// A query that passes over more entities than it returns is answered in pages as Azure answers it:
/// a page may be empty and still carry a continuation, instead of the server reading the whole table
/// in silence before its first byte. The local account passes over at most 20,000 entities a page
/// (`SQLiteScan.skipBudget`); the table here holds more than twice that.
@Suite("serve: a query that scans more than it returns is paged, empty pages too")
struct TableScanBudgetTests {
    static let count = 45_000

    /// One partition, `Events`, RowKeys `000000`…, each with `N`, its number.
    static func store(_ path: String) async throws {
        let account = try StorageLocation.local(path: path).open(readOnly: false)
        try await account.createTableIfNotExists("events")
        let entities = (0..<count).map { number in
            Entity(
                partitionKey: "Events",
                rowKey: rowKey(number),
                properties: [Property("N", .int32(Int32(number)))]
            )
        }
        try await account.write(entities, table: "events", mode: .insert)
        try await account.flush()
    }

    static func rowKey(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// Every page of a query over HTTP, each a continuation of the last: the RowKeys of each.
    static func pages(_ port: Int, filter: String) async throws -> [[String]] {
        let encodedFilter = filter.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        var pages: [[String]] = []
        var continuation = ""
        while true {
            // Table Shared Key signs the path alone.
            let (url, headers) = try TableBadRequestTests.signed(
                "GET",
                port: port,
                path: "events()",
                body: [],
                contentType: ""
            )
            let reply = try await send(
                "GET",
                url + "?$filter=\(encodedFilter)&$top=1000" + continuation,
                headers: headers
            )
            try #require(reply.status == 200, "\(reply.text)")
            let object = try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any]
            let entities = try #require(object?["value"] as? [[String: Any]])
            pages.append(entities.map { $0["RowKey"] as? String ?? "?" })
            guard let partition = reply.header("x-ms-continuation-NextPartitionKey") else {
                #expect(reply.header("x-ms-continuation-NextRowKey") == nil)
                return pages
            }
            let row = try #require(reply.header("x-ms-continuation-NextRowKey"))
            continuation = "&NextPartitionKey=\(partition)&NextRowKey=\(row)"
            try #require(pages.count < 100, "the continuations do not end")
        }
    }

    /// The filters and the RowKeys each matches; the table is made once for all of them (under
    /// ThreadSanitizer, a table of 45,000 for each case was minutes of CI).
    static let filters: [(String, [String])] = [
        ("N ge 44998", ["044998", "044999"]),
        ("PartitionKey eq 'Events' and N eq 44999", ["044999"]),
        ("RowKey ge '044998'", ["044998", "044999"]),
        ("RowKey eq '000000' or RowKey eq '044999'", ["000000", "044999"]),
        ("N eq -1", []),
    ]

    @Test(
        "filters that match only the last entities answer empty pages with continuations; one every entity meets fills its pages; the library's client follows the empty pages"
    )
    func pagedScans() async throws {
        try await withRunningServer(prepare: Self.store) { server in
            for (filter, expected) in Self.filters {
                let pages = try await Self.pages(server.port(.table), filter: filter)
                #expect(pages.flatMap { $0 } == expected, "\(filter): \(pages)")
                // 45,000 entities passed over at most 20,000 a page: three pages at least, the first
                // one's matches (if any) and then at least one empty page before the last.
                #expect(pages.count >= 3, "\(filter): \(pages.map(\.count))")
                #expect(pages.dropLast().contains { $0.isEmpty }, "\(filter): \(pages.map(\.count))")
            }

            // A filter that every entity meets: 1,000 a page, nothing cut short.
            let full = try await Self.pages(server.port(.table), filter: "N ge 0 and PartitionKey eq 'Events'")
            #expect(full.count == 45)
            #expect(full.allSatisfy { $0.count == 1000 })

            // forEachEntity over the Azure REST client reads past the empty pages to the end.
            let account = try StorageLocation(server.connectionString(), environment: [:]).open(readOnly: true)
            for (filter, expected) in [("N ge 44998", ["044998", "044999"]), ("N eq -1", [])] {
                let query = EntityQuery(filter: try EntityFilter(parsing: filter))
                var rowKeys: [String] = []
                try await account.forEachEntity(table: "events", query) { rowKeys.append($0.rowKey) }
                #expect(rowKeys == expected, "\(filter)")
                let first = try await account.query(table: "events", query, from: nil, limit: 1000)
                #expect(
                    first.entities.isEmpty && first.next != nil,
                    "\(filter): the first page is empty, and not the last"
                )
            }
        }
    }
}
