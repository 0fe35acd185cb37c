import Foundation
import SpeakEasyData
import Testing

/// `serve` inside the test process: each test gets its own server on free ports over a temporary
/// store, which is gone when the server stops.
@Suite struct LocalStorageServerTests {
    /// The server starts, answers on both ports, and stops; its store goes with it.
    @Test func startsOnFreePortsAndStops() async throws {
        let server = try await LocalStorageServer.start(store: .temporary)
        #expect(server.tablePort > 0 && server.blobPort > 0 && server.tablePort != server.blobPort)
        #expect(server.connectionString.contains("TableEndpoint=http://127.0.0.1:\(server.tablePort)/devstoreaccount1"))

        let store = try Store(server.connectionString)
        #expect(try await store.tableNames() == [])
        try await server.stop()

        // Nothing answers any more: the client says so, with the address it tried.
        await #expect(throws: StorageError.self) { try await store.tableNames() }
    }

    /// The library's Azure client writes entities to the server over HTTP and reads them back, with
    /// every type and a date to the 100 ns.
    @Test func writesAndReadsEntitiesOverAzuresProtocol() async throws {
        try await LocalStorageServer.withRunning { server in
            let store = try Store(server.connectionString)
            try await store.createTable("Talks")
            let date = try #require(EdmDateTime(year: 2026, month: 3, day: 1, hour: 18, minute: 30, fraction: 1))
            let talks = (1...250).map { number in
                Entity(
                    partitionKey: number.isMultiple(of: 2) ? "even" : "odd",
                    rowKey: "talk-\(number)",
                    properties: [
                        Property("Title", .string("Talk \(number)")),
                        Property("Attendees", .int64(Int64(number) << 40)),
                        Property("StartsAt", .dateTime(date)),
                    ]
                )
            }
            try await store.write(talks, to: "Talks")

            var read: [Entity] = []
            for try await talk in store.entities(in: "Talks", filter: "Attendees ge \((Int64(200) << 40))L") {
                read.append(talk)
            }
            #expect(read.count == 51)
            #expect(read.allSatisfy { $0["StartsAt"] == .dateTime(date) && $0.etag != nil })

            let one = try await store.entity(in: "Talks", partitionKey: "odd", rowKey: "talk-7")
            #expect(one?["Title"] == .string("Talk 7"))
            #expect(try await store.entity(in: "Talks", partitionKey: "odd", rowKey: "talk-8") == nil)
        }
    }

    /// Blobs go up and come back byte for byte, and list by prefix.
    @Test func storesAndListsBlobs() async throws {
        try await LocalStorageServer.withRunning { server in
            let store = try Store(server.connectionString)
            #expect(try await store.createContainer("photos"))
            #expect(try await !store.createContainer("photos"))
            let bytes = (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) }
            for name in ["2026/keynote.jpg", "2026/panel.jpg", "2027/keynote.jpg"] {
                try await store.putBlob(bytes, container: "photos", name: name, contentType: "image/jpeg")
            }
            #expect(try await store.blob(container: "photos", name: "2026/panel.jpg") == bytes)
            #expect(try await store.blob(container: "photos", name: "2025/none.jpg") == nil)
            #expect(
                try await store.blobNames(container: "photos", prefix: "2026/") == [
                    "2026/keynote.jpg", "2026/panel.jpg",
                ]
            )
        }
    }

    /// Seeding through the server writes what validation passes, and what `export` writes.
    @Test func seedsValidatesAndExports() async throws {
        try await LocalStorageServer.withRunning { server in
            let store = try Store(server.connectionString)
            let summary = try await store.seed(SeedOptions(seed: 7, eventCount: 40))
            #expect(summary.seed == 7 && summary.events == 40 && summary.inserted == summary.speakers + 40)

            let report = try await store.validate()
            #expect(report.errorCount == 0, "\(report.findings)")

            let path = FileManager.default.temporaryDirectory.appendingPathComponent(
                "events-\(server.tablePort).ndjson"
            ).path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let written = try await store.export(partition: DataContract.eventsPartition, to: path, as: .ndjson)
            #expect(written == 40)
            var events = 0
            for try await event in EntityFile.entities(at: path) {
                #expect(event.partitionKey == DataContract.eventsPartition)
                events += 1
            }
            #expect(events == 40)
        }
    }
}
