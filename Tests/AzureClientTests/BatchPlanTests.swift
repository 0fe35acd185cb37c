import SpeakEasyAzure
import SpeakEasyData
import SpeakEasyProtocol
import Testing

/// Writes cut into entity group transactions as Azure takes them.
@Suite("Azure client: entities cut into batches")
struct BatchPlanTests {
    static func entity(_ partition: String, _ row: Int, bytes: Int = 10) -> EncodedEntity {
        EncodedEntity(partitionKey: partition, rowKey: "r\(row)", properties: Array("{\"P\":\"\(String(repeating: "x", count: bytes))\"}".utf8))
    }

    @Test("one partition a batch, at most 100 each, every entity once, in its partition's order")
    func counts() {
        var entities: [EncodedEntity] = []
        for row in 0..<250 { entities.append(Self.entity(["a", "b", "c"][row % 3], row)) }
        let batches = BatchPlan.batches(entities)
        #expect(batches.map(\.count) == [84, 83, 83])
        var many = (0..<250).map { Self.entity("events", $0) }
        many.append(Self.entity("speakers", 0))
        #expect(BatchPlan.batches(many).map(\.count) == [100, 100, 50, 1])
        for batch in BatchPlan.batches(entities + many) {
            #expect(batch.count <= 100)
            #expect(Set(batch.map { (entities + many)[$0].partitionKey }).count == 1)
            #expect(batch == batch.sorted())
        }
        #expect(BatchPlan.batches(entities + many).flatMap { $0 }.sorted() == Array(0..<(entities + many).count))
        #expect(BatchPlan.batches([]).isEmpty)
    }

    @Test("a batch's body stays under 4 MiB: large entities go fewer to a batch")
    func size() {
        // Entities just under Azure's 1 MiB limit: three to a batch (four would pass 4 MiB).
        let large = (0..<10).map { Self.entity("p", $0, bytes: 1_040_000) }
        let batches = BatchPlan.batches(large)
        #expect(batches.map(\.count) == [3, 3, 3, 1])
        // The bodies as the client writes them, keys with quotes and non-ASCII in them, fit.
        let endpoint = "https://" + String(repeating: "a", count: 24) + ".table.core.windows.net"
        let mixed = large + (0..<300).map { Self.entity("p", $0, bytes: 10_000) }
        for batch in BatchPlan.batches(mixed) {
            let operations = batch.map { index in
                let entity = mixed[index]
                let value = String(decoding: entity.properties.dropFirst(6).dropLast(2), as: UTF8.self)
                return TableBatchOperation(
                    .insertOrReplace, table: "events", partitionKey: entity.partitionKey, rowKey: entity.rowKey + "'ü\"",
                    entity: Entity(partitionKey: entity.partitionKey, rowKey: entity.rowKey + "'ü\"", properties: [Property("P", .string(value))]))
            }
            let body = TableBatchRequest(operations: operations).write(endpoint: endpoint, boundary: "batch_" + String(repeating: "0", count: 36))
            #expect(body.count < 4 << 20, "\(batch.count) operations: \(body.count) bytes")
        }
    }
}
