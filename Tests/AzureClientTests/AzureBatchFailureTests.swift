import SpeakEasyAzure
import SpeakEasyData
import TestServer
import TestSupport
import Testing

/// What a user reads when a batch fails: the entity, its index in the batch and the service's code.
@Suite("Azure client: a failed batch names its entity")
struct AzureBatchFailureTests {
    @Test(
        "an insert of an entity that is there fails its batch, naming operation, keys and EntityAlreadyExists; the others in the batch are not written"
    )
    func failedInsert() async throws {
        try await withRunningServer { server in
            let account = AzureStorageAccount(try AzureConnection(ConnectionString(server.connectionString())))
            try await account.createTableIfNotExists("events")
            let entities = (0..<10).map {
                EncodedEntity(
                    Entity(partitionKey: "p", rowKey: "r\($0)", properties: [Property("N", .int32(Int32($0)))])
                )
            }
            try await account.write([entities[3]], table: "events", mode: .insert)
            let error = await #expect(throws: StorageError.self) {
                try await account.write(entities, table: "events", mode: .insert)
            }
            #expect(error?.reason == .alreadyExists)
            #expect(error?.code == "EntityAlreadyExists")
            #expect(error?.operationIndex == 3)
            #expect(error?.message.contains("operation 3 of a batch of 10") == true, "\(String(describing: error))")
            #expect(
                error?.message.contains("RowKey 'r3'") == true
                    && error?.message.contains("[EntityAlreadyExists]") == true,
                "\(String(describing: error))"
            )
            var stored: [Entity] = []
            try await account.forEachEntity(table: "events", partition: nil) { stored.append($0) }
            #expect(stored.map(\.rowKey) == ["r3"])
        }
    }

    @Test("one key twice in an insert is refused before anything is sent; in an upsert the later one wins")
    func repeatedKeys() async throws {
        try await withRunningServer { server in
            let account = AzureStorageAccount(try AzureConnection(ConnectionString(server.connectionString())))
            try await account.createTableIfNotExists("events")
            let first = EncodedEntity(Entity(partitionKey: "p", rowKey: "r", properties: [Property("N", .int32(1))]))
            let second = EncodedEntity(Entity(partitionKey: "p", rowKey: "r", properties: [Property("N", .int32(2))]))
            let sent = account.requestCounts.requests
            let error = await #expect(throws: StorageError.self) {
                try await account.write([first, second], table: "events", mode: .insert)
            }
            #expect(error?.reason == .alreadyExists)
            #expect(account.requestCounts.requests == sent)
            try await account.write([first, second], table: "events", mode: .insertOrReplace)
            #expect(try await account.entity(table: "events", partitionKey: "p", rowKey: "r")?["N"] == .int32(2))
        }
    }
}
