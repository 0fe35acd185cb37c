import Foundation
import SpeakEasyData
import Testing

/// A query read as ranges at once (``ParallelScan``) gives exactly what one serial read gives, in the
/// same order, whatever the keys look like, holding at most `parallel` pages at a time.
@Suite("Storage conformance: parallel scans")
struct ConformanceParallelScan {
    /// Small pages, so that a thousand entities make many of them.
    ///
    /// The sizes are small because these tests run beside the other conformance tests, and under
    /// ThreadSanitizer thousands of requests through the Azure client and `serve` slowed those past
    /// their timeouts.
    static let pageSize = 50

    /// A table's entities, named for the test's arguments.
    struct Keys: Sendable, CustomTestStringConvertible {
        let name: String
        /// The partition a `--partition` read of this table names.
        let partition: String?
        let entities: @Sendable () -> [Entity]

        var testDescription: String { name }

        static func entity(_ partition: String, _ row: String, _ index: Int) -> Entity {
            Entity(
                partitionKey: partition,
                rowKey: row,
                properties: [Property("N", .int32(Int32(index))), Property("Text", .string("entity \(index)"))]
            )
        }

        /// Seeded events: RowKeys are uniform GUIDs, beside a small speakers partition.
        static let uniform = Keys(name: "uniform GUIDs", partition: "Events") {
            var random = SplitMix64(seed: 31)
            return (0..<1_000).map { entity("Events", random.guid().description, $0) }
                + (0..<40).map { entity("speakers", random.guid().description, $0) }
        }

        /// Every RowKey shares a prefix of 200 characters, then counts without padding (1, 10, 100, 1000,
        /// 1001, …), so most keys crowd into a few stretches of the key space.
        static let sharedPrefix = Keys(name: "a long shared prefix", partition: "P") {
            let prefix = String(repeating: "prefix-", count: 28) + "x"
            return (1...1_000).map { entity("P", prefix + String($0), $0) }
        }

        /// Two huge partitions among many tiny ones.
        static let hugeAndTiny = Keys(name: "a few huge partitions, many tiny ones", partition: "M") {
            var random = SplitMix64(seed: 7)
            var entities: [Entity] = []
            for index in 0..<150 {
                let partition = "t\(index)"
                for row in 0..<(1 + index % 3) { entities.append(entity(partition, "r\(row)", index)) }
            }
            entities += (0..<500).map { entity("A", random.guid().description, $0) }
            entities += (0..<500).map { entity("M", String($0 * 7919 % 100_003), $0) }
            return entities
        }

        /// Keys a filter must escape (`'`), and non-ASCII ones, some outside the BMP.
        static let escaped = Keys(name: "quotes and non-ASCII characters", partition: "O'Brien ü") {
            let stems = ["O'Brien", "a''b", "é", "e\u{301}", "日本語", "😀", "\u{E000}", "\u{FFFD}", "Zürich", "'"]
            return (0..<600).map { index in
                entity(index % 2 == 0 ? "O'Brien ü" : "😀 partition", "\(stems[index % stems.count])-\(index)", index)
            }
        }

        /// PartitionKeys unpadded (p1, p10, p100, p101, …), two entities each.
        static let manyPartitions = Keys(name: "many partitions", partition: "p250") {
            (0..<500).flatMap { index in
                let partition = "p\(index * 7 % 500)"
                return [entity(partition, "a", index), entity(partition, "b", index)]
            }
        }

        static let one = Keys(name: "one entity", partition: "Events") { [entity("Events", "only", 1)] }
        static let empty = Keys(name: "an empty table", partition: "Events") { [] }

        static let all: [Keys] = [.uniform, .sharedPrefix, .hugeAndTiny, .escaped, .manyPartitions, .one, .empty]
    }

    /// The serial read: one page after another.
    static func serial(_ account: any StorageAccount, _ query: EntityQuery) async throws -> [Entity] {
        var entities: [Entity] = []
        try await account.forEachEntity(table: Conformance.table, query, pageSize: pageSize) { entities.append($0) }
        return entities
    }

    static func parallel(
        _ account: any StorageAccount,
        _ query: EntityQuery,
        parallel: Int
    ) async throws -> ([Entity], ParallelScan.Statistics) {
        var entities: [Entity] = []
        let statistics = try await ParallelScan(
            account: account,
            table: Conformance.table,
            query: query,
            parallel: parallel,
            pageSize: pageSize
        ).run { entities += $0 }
        return (entities, statistics)
    }

    /// The same entities in the same order, never more than `parallel` reads at once, and never more
    /// than half as many again pages held or in flight.
    static func expectSameAsSerial(
        _ account: any StorageAccount,
        _ query: EntityQuery,
        parallel: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> ParallelScan.Statistics {
        let expected = try await serial(account, query)
        let (entities, statistics) = try await Self.parallel(account, query, parallel: parallel)
        #expect(entities.count == expected.count, sourceLocation: sourceLocation)
        #expect(entities.map(\.key) == expected.map(\.key), sourceLocation: sourceLocation)
        #expect(entities.map(\.canonical) == expected.map(\.canonical), sourceLocation: sourceLocation)
        #expect(statistics.peakReads <= parallel, sourceLocation: sourceLocation)
        #expect(statistics.peakPages <= parallel + (parallel + 1) / 2, sourceLocation: sourceLocation)
        return statistics
    }

    @Test(
        "a whole table, a partition, a filter and a projection read as serially",
        arguments: ConformanceBackend.all,
        Keys.all
    )
    func sameAsSerial(backend: ConformanceBackend, keys: Keys) async throws {
        try await backend.withAccount { account in
            let written = keys.entities()
            try await account.write(written, table: Conformance.table, mode: .insert)
            let queries = [
                EntityQuery.all,
                EntityQuery(partition: keys.partition),
                EntityQuery(filter: .comparison(property: "N", .ge, .int32(10))),
                EntityQuery(partition: keys.partition, filter: .key("RowKey", .gt, "a"), select: ["N"]),
            ]
            for (query, parallel) in zip(queries, [2, 8, 8, 2]) {
                _ = try await Self.expectSameAsSerial(account, query, parallel: parallel)
            }
            #expect(try await Self.serial(account, .all).map(\.canonical) == inKeyOrder(written))
        }
    }

    @Test("uniform keys are cut into about a page a range, read at once", arguments: ConformanceBackend.all)
    func cutsUniformKeys(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(Keys.uniform.entities(), table: Conformance.table, mode: .insert)
            let statistics = try await Self.expectSameAsSerial(account, EntityQuery(partition: "Events"), parallel: 8)
            // 1,000 entities are 20 pages read serially; cut ranges of ~45 entities, a few spill over.
            #expect(statistics.requests >= 20 && statistics.requests <= 40, "\(statistics.requests) requests")
            #expect(statistics.peakReads == 8, "the window never filled: \(statistics.peakReads) at most")
        }
    }

    @Test("skewed keys cost at most a few times the requests of a serial read", arguments: ConformanceBackend.all)
    func skewedKeysStayCheap(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            for keys in [Keys.sharedPrefix, .hugeAndTiny, .manyPartitions] {
                try await account.deleteAllEntities(table: Conformance.table)
                let written = keys.entities()
                try await account.write(written, table: Conformance.table, mode: .insert)
                let statistics = try await Self.expectSameAsSerial(account, .all, parallel: 8)
                let serialPages = (written.count + Self.pageSize - 1) / Self.pageSize
                #expect(statistics.requests <= 4 * serialPages + 16, "\(keys.name): \(statistics.requests) requests")
            }
        }
    }

    @Test("a missing table fails as a serial read does", arguments: ConformanceBackend.all)
    func missingTable(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let serial = await storageError {
                try await account.forEachEntity(table: Conformance.missingTable, .all) { _ in }
            }
            let parallel = await storageError {
                try await ParallelScan(account: account, table: Conformance.missingTable, query: .all, parallel: 8)
                    .run { _ in }
            }
            #expect(serial?.reason == .notFound)
            #expect(parallel?.reason == serial?.reason && parallel?.code == serial?.code)
        }
    }

    @Test("a throw from the handler stops the scan with that error", arguments: ConformanceBackend.all)
    func handlerThrows(backend: ConformanceBackend) async throws {
        struct Enough: Error {}
        try await backend.withAccount { account in
            try await account.write(Keys.uniform.entities(), table: Conformance.table, mode: .insert)
            var pages = 0
            await #expect(throws: Enough.self) {
                try await ParallelScan(
                    account: account,
                    table: Conformance.table,
                    query: .all,
                    parallel: 8,
                    pageSize: Self.pageSize
                ).run { _ in
                    pages += 1
                    if pages == 3 { throw Enough() }
                }
            }
            #expect(pages == 3)
        }
    }

    @Test("a slow handler holds the scan to 1.5 times `parallel` pages", arguments: ConformanceBackend.all)
    func boundedWhenHandlerIsSlow(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(Keys.uniform.entities(), table: Conformance.table, mode: .insert)
            var count = 0
            let statistics = try await ParallelScan(
                account: account,
                table: Conformance.table,
                query: .all,
                parallel: 4,
                pageSize: Self.pageSize
            ).run { page in
                count += page.count
                // A handler slower than the reads: pages read ahead wait, and no more are read.
                var spin = 0
                for entity in page { spin &+= entity.rowKey.utf8.count }
                usleep(2_000)
                _ = spin
            }
            #expect(count == 1_040)
            #expect(statistics.peakPages <= 6)
            #expect(statistics.peakReads <= 4)
        }
    }
}
