import SpeakEasyData
import SpeakEasySQLite
import TestSupport
import Testing

/// `storedQuery` reads the next page ahead while its caller handles the last one; what it gives out
/// must be what reading that page anew would give, whatever was committed in between.
@Suite("SQLite storage account: query pages read ahead")
struct SQLiteReadAheadTests {
    static func entity(_ row: Int, _ text: String = "first") -> Entity {
        Entity(
            partitionKey: "p",
            rowKey: "r" + (row < 10 ? "0" : "") + String(row),
            properties: [Property("Text", .string(text))]
        )
    }

    /// Every page of partition `p`, following the continuations, in pages of 10.
    static func pages(
        _ store: SQLiteStorageAccount,
        between: (Int) async throws -> Void = { _ in }
    ) async throws -> [StoredEntityPage] {
        var pages: [StoredEntityPage] = []
        var from: ContinuationToken? = nil
        repeat {
            let page = try await store.storedQuery(table: "t", EntityQuery(partition: "p"), from: from, limit: 10)
            pages.append(page)
            from = page.next
            if from != nil { try await between(pages.count) }
        } while from != nil
        return pages
    }

    static func texts(_ pages: [StoredEntityPage]) -> [String] {
        pages.flatMap(\.entities).map {
            "\($0.encoded.rowKey)=\(String(decoding: $0.encoded.properties, as: UTF8.self))"
        }
    }

    @Test("paging through a partition gives every entity once, in order, as one reading of it all does")
    func pagesAsRead() async throws {
        try await withTemporaryDirectory { directory in
            let store = try SQLiteStorageAccount(path: directory + "/store.sqlite")
            try await store.createTableIfNotExists("t")
            try await store.write((0..<25).map { Self.entity($0) }, table: "t", mode: .insert)
            let pages = try await Self.pages(store)
            #expect(pages.map(\.entities.count) == [10, 10, 5])
            let whole = try await store.storedQuery(table: "t", EntityQuery(partition: "p"), from: nil, limit: 1000)
            #expect(Self.texts(pages) == Self.texts([whole]))
        }
    }

    @Test("a commit after the next page was read ahead, by this account or another connection, is in that page")
    func commitsBetweenPages() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/store.sqlite"
            let store = try SQLiteStorageAccount(path: path)
            try await store.createTableIfNotExists("t")
            try await store.write((0..<25).map { Self.entity($0) }, table: "t", mode: .insert)
            let other = try SQLiteStorageAccount(path: path)
            let pages = try await Self.pages(store) { pagesRead in
                // Time for the read ahead of the next page to finish, so that it is the one that is stale.
                try await Task.sleep(for: .milliseconds(200))
                switch pagesRead {
                case 1: try await store.write([Self.entity(15, "changed here")], table: "t", mode: .insertOrReplace)
                default:
                    try await other.write(
                        [Self.entity(22, "changed by another connection")],
                        table: "t",
                        mode: .insertOrReplace
                    )
                }
            }
            let texts = Self.texts(pages)
            #expect(texts.count == 25)
            #expect(texts[15].contains("changed here"), "\(texts[15])")
            #expect(texts[22].contains("changed by another connection"), "\(texts[22])")
        }
    }
}
