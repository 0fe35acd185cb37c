import SpeakEasyData
import SpeakEasySQLite
import Testing

/// What a seed writes of a batch, decided from the digests of what the table holds.
@Suite("Write plans: only new and changed entities are written")
struct WritePlanTests {
    static let original = Entity(
        partitionKey: "p",
        rowKey: "r",
        properties: [Property("A", .int32(1)), Property("B", .string("old"))]
    )

    static func planned(_ entities: [Entity]) -> [(entity: EncodedEntity, digest: EntityDigest)] {
        entities.map { (EncodedEntity($0), EntityDigest($0)) }
    }

    @Test("a table known to be empty: everything is inserted, nothing is read")
    func emptyTable() {
        let plan = WritePlan(mode: .insert)
        let (write, outcome) = plan.plan(Self.planned([Self.original, Entity(partitionKey: "p", rowKey: "s")]))
        #expect(write.count == 2)
        #expect(outcome == WriteOutcome(inserted: 2))
    }

    @Test("unchanged content is not written: its Timestamp and ETag stay; a changed entity is, a new one is inserted")
    func unchangedKept() async throws {
        try await withStore { store, _ in
            try await store.write([Self.original, Entity(partitionKey: "p", rowKey: "x")], table: "t", mode: .insert)
            let before = try #require(try await store.entity(table: "t", partitionKey: "p", rowKey: "r"))
            let plan = try await WritePlan(reading: store, table: "t", mode: .insertOrReplace, resuming: false)
            let changed = Entity(partitionKey: "p", rowKey: "x", properties: [Property("C", .boolean(true))])
            let (write, outcome) = plan.plan(
                Self.planned([Self.original, changed, Entity(partitionKey: "p", rowKey: "new")])
            )
            #expect(outcome == WriteOutcome(inserted: 1, updated: 1, unchanged: 1))
            #expect(write.map(\.rowKey) == ["x", "new"])
            try await store.write(write, table: "t", mode: plan.mode)
            let after = try #require(try await store.entity(table: "t", partitionKey: "p", rowKey: "r"))
            #expect(after.timestamp == before.timestamp)
            #expect(after.etag == before.etag)
        }
    }

    @Test("property order is not content: the canonical digest sorts properties by name")
    func orderIsNotContent() async throws {
        try await withStore { store, _ in
            try await store.write([Self.original], table: "t", mode: .insert)
            var reordered = Self.original
            reordered.properties.reverse()
            #expect(EntityDigest(reordered) == EntityDigest(Self.original))
            let plan = try await WritePlan(reading: store, table: "t", mode: .insertOrReplace, resuming: false)
            #expect(plan.plan(Self.planned([reordered])).outcome == WriteOutcome(unchanged: 1))
        }
    }

    @Test("finishing an interrupted fresh run leaves whatever is there, changed or not")
    func resumingKeepsExisting() async throws {
        try await withStore { store, _ in
            try await store.write([Self.original], table: "t", mode: .insert)
            let plan = try await WritePlan(reading: store, table: "t", mode: .insert, resuming: true)
            var changed = Self.original
            changed.properties = [Property("C", .boolean(true))]
            let (write, outcome) = plan.plan(Self.planned([changed, Entity(partitionKey: "p", rowKey: "s")]))
            #expect(outcome == WriteOutcome(inserted: 1, unchanged: 1))
            #expect(write.map(\.rowKey) == ["s"])
        }
    }
}
