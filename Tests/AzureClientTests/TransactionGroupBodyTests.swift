import SpeakEasyData
import SpeakEasyProtocol
import Testing

/// The storage seam's transaction groups (`TransactionGroups`), which the Azure client sends one
/// `$batch` each: the bodies the client writes for them stay under Azure's 4 MiB.
@Suite("Azure client: transaction groups fit a $batch")
struct TransactionGroupBodyTests {
    static func entity(_ row: Int, bytes: Int) -> EncodedEntity {
        EncodedEntity(
            partitionKey: "p",
            rowKey: "r\(row)'ü\"",
            properties: Array("{\"P\":\"\(String(repeating: "x", count: bytes))\"}".utf8)
        )
    }

    @Test("entities just under 1 MiB go three to a batch, small ones a hundred; every body is under 4 MiB")
    func bodies() {
        let entities =
            (0..<10).map { Self.entity($0, bytes: 1_040_000) } + (10..<310).map { Self.entity($0, bytes: 10_000) }
        let groups = TransactionGroups.split(entities)
        #expect(groups.map(\.count) == [3, 3, 3, 100, 100, 100, 1])
        // A long endpoint, and keys that JSON escapes and URLs percent-encode.
        let endpoint = "https://" + String(repeating: "a", count: 24) + ".table.core.windows.net"
        for group in groups {
            let operations = group.map { entity in
                let value = String(decoding: entity.properties.dropFirst(6).dropLast(2), as: UTF8.self)
                return TableBatchOperation(
                    .insertOrReplace,
                    table: "events",
                    partitionKey: entity.partitionKey,
                    rowKey: entity.rowKey,
                    entity: Entity(
                        partitionKey: entity.partitionKey,
                        rowKey: entity.rowKey,
                        properties: [Property("P", .string(value))]
                    )
                )
            }
            let body = TableBatchRequest(operations: operations).write(
                endpoint: endpoint,
                boundary: "batch_" + String(repeating: "0", count: 36)
            )
            #expect(group.count <= 100)
            #expect(body.count < 4 << 20, "\(group.count) operations: \(body.count) bytes")
        }
    }
}
