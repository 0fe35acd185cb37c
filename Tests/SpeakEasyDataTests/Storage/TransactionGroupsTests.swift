import SpeakEasyData
import Testing

@Suite("Transaction groups")
struct TransactionGroupsTests {
    static func entity(_ partition: String, _ row: Int, bytes: Int = 10) -> EncodedEntity {
        EncodedEntity(
            Entity(
                partitionKey: partition,
                rowKey: String(row),
                properties: [Property("S", .string(String(repeating: "x", count: bytes)))]
            )
        )
    }

    @Test("groups hold at most 100 entities of one partition, in the order given")
    func countsAndPartitions() {
        let entities = (0..<150).map { Self.entity($0.isMultiple(of: 3) ? "a" : "b", $0) }
        let groups = TransactionGroups.split(entities)
        #expect(groups.map(\.count) == [50, 100])
        #expect(groups.allSatisfy { group in group.allSatisfy { $0.partitionKey == group[0].partitionKey } })
        #expect(
            groups.flatMap { $0 }.map(\.rowKey) == entities.filter { $0.partitionKey == "a" }.map(\.rowKey)
                + entities.filter { $0.partitionKey == "b" }.map(\.rowKey)
        )
        #expect(TransactionGroups.split((0..<201).map { Self.entity("p", $0) }).map(\.count) == [100, 100, 1])
        #expect(TransactionGroups.split([]).isEmpty)
    }

    @Test("a group stays under the request's size limit")
    func bytes() {
        // 1 MiB entities (Azure's largest): three fit under 4 MiB less framing, a fourth does not.
        let entities = (0..<7).map { Self.entity("p", $0, bytes: 1 << 20 - 100) }
        let groups = TransactionGroups.split(entities)
        #expect(groups.map(\.count) == [3, 3, 1])
        for group in groups { #expect(group.reduce(0) { $0 + $1.properties.count } <= TransactionGroups.maximumBytes) }
    }
}
