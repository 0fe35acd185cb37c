import SpeakEasyData
import TestSupport
import Testing

@Suite("Entity")
struct EntityTests {
    static let base = Entity(
        partitionKey: "p",
        rowKey: "r",
        timestamp: .at("2024-01-01T00:00:00Z"),
        etag: "W/\"1\"",
        properties: [Property("A", .int32(1)), Property("B", .string("x")), Property("C", .boolean(false))]
    )

    @Test("merging replaces existing properties in place and appends new ones")
    func merging() {
        let update = Entity(
            partitionKey: "ignored",
            rowKey: "ignored",
            timestamp: .at("2025-01-01T00:00:00Z"),
            etag: "W/\"2\"",
            properties: [Property("D", .double(2.5)), Property("B", .string("y"))]
        )
        let merged = Self.base.merging(update)
        #expect(
            merged.properties == [
                Property("A", .int32(1)), Property("B", .string("y")), Property("C", .boolean(false)),
                Property("D", .double(2.5)),
            ]
        )
        #expect(merged.partitionKey == "p")
        #expect(merged.rowKey == "r")
        #expect(merged.timestamp == Self.base.timestamp)
        #expect(merged.etag == Self.base.etag)
    }

    @Test("merging can change a property's type, and an empty update changes nothing")
    func mergingTypes() {
        let merged = Self.base.merging(Entity(partitionKey: "p", rowKey: "r", properties: [Property("A", .int64(1))]))
        #expect(merged["A"] == .int64(1))
        #expect(merged.properties.count == 3)
        #expect(Self.base.merging(Entity(partitionKey: "p", rowKey: "r")) == Self.base)
    }

    @Test("content drops the store's Timestamp and ETag, keeping keys and properties")
    func content() {
        let content = Self.base.content
        #expect(content.timestamp == nil)
        #expect(content.etag == nil)
        #expect(content.partitionKey == "p" && content.rowKey == "r")
        #expect(content.properties == Self.base.properties)
        #expect(content != Self.base)
    }

    @Test("subscript finds a property by exact name")
    func subscriptByName() {
        #expect(Self.base["B"] == .string("x"))
        #expect(Self.base["b"] == nil)
        #expect(Self.base["Z"] == nil)
    }
}
