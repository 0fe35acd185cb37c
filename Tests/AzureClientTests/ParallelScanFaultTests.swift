import SpeakEasyAzure
import SpeakEasyData
import SpeakEasyServer
import TestServer
import Testing

/// A parallel scan (``ParallelScan``) over the client when a read fails part way: the scan fails
/// with that read's error, as a serial read does, and does not hang on the reads still in flight.
@Suite("Azure client: a parallel scan that fails part way")
struct ParallelScanFaultTests {
    @Test("a 500 on the fifth query, with no tries left, fails the whole scan with a StorageError")
    func failsMidScan() async throws {
        try await withRunningServer(
            configure: { $0.faults = try! FaultPlan(parsing: "500/every=5/path=/devstoreaccount1/scan()") },
            { server in
                let connection = try AzureConnection(ConnectionString(server.connectionString()))
                // Set up with the default tries (a pooled connection an earlier server on this port
                // closed may need a second); only the scan has none to spare.
                let writer = AzureStorageAccount(connection, parallel: 8)
                let account = AzureStorageAccount(connection, parallel: 8, retry: RetryPolicy(attempts: 1))
                try await writer.createTableIfNotExists("scan")
                var random = SplitMix64(seed: 5)
                let entities = (0..<2_000).map { index in
                    Entity(
                        partitionKey: "Events",
                        rowKey: random.guid().description,
                        properties: [Property("N", .int32(Int32(index)))]
                    )
                }
                try await writer.write(entities, table: "scan", mode: .insert)
                var handed = 0
                await #expect(throws: StorageError.self) {
                    try await ParallelScan(
                        account: account,
                        table: "scan",
                        query: EntityQuery(partition: "Events"),
                        parallel: 8,
                        pageSize: 100
                    ).run { handed += $0.count }
                }
                #expect(handed < 2_000)
            }
        )
    }
}
