import SpeakEasyData
import TestSupport
import Testing

@Suite("ContentHash")
struct ContentHashTests {
    static func entities() -> [Entity] {
        var random = SplitMix64(seed: 11)
        return (0..<200).map { index in
            Entity(
                partitionKey: index % 2 == 0 ? "speakers" : "Events",
                rowKey: random.guid().description,
                properties: [
                    Property("N", .int32(Int32(index))), Property("D", .double(Double(index) / 3)),
                    Property("T", .dateTime(.at("2026-01-01T00:00:00Z"))),
                ]
            )
        }
    }

    static func hash(_ entities: some Sequence<Entity>) -> ContentHash {
        var hash = ContentHash()
        for entity in entities { hash.add(entity) }
        return hash
    }

    @Test("the same entities in any order hash the same")
    func orderIndependent() {
        let entities = Self.entities()
        var random = SplitMix64(seed: 3)
        let shuffled = entities.shuffled(using: &random)
        #expect(Self.hash(entities) == Self.hash(shuffled))
        #expect(Self.hash(entities) == Self.hash(entities.reversed()))
        #expect(Self.hash(entities).description == Self.hash(shuffled).description)
    }

    @Test("one changed value, key or type changes the hash")
    func sensitive() {
        let entities = Self.entities()
        let original = Self.hash(entities)
        var changedValue = entities
        changedValue[17].properties[0].value = .int32(-1)
        #expect(Self.hash(changedValue) != original)
        var changedType = entities
        changedType[17].properties[0].value = .int64(17)
        #expect(Self.hash(changedType) != original)
        var changedKey = entities
        changedKey[17].rowKey += "x"
        #expect(Self.hash(changedKey) != original)
        var changedDouble = entities
        changedDouble[0].properties[1].value = .double(-0.0)
        #expect(Self.hash(changedDouble) != original)
        #expect(Self.hash(entities.dropLast()) != original)
    }

    @Test("keys are separated: (ab, c) differs from (a, bc)")
    func keySeparation() {
        #expect(
            Self.hash([Entity(partitionKey: "ab", rowKey: "c")]) != Self.hash([Entity(partitionKey: "a", rowKey: "bc")])
        )
    }

    @Test("Timestamp and ETag are not content")
    func storeFieldsIgnored() {
        let entities = Self.entities()
        let stamped = entities.map { entity -> Entity in
            var entity = entity
            entity.timestamp = .now()
            entity.etag = "W/\"x\""
            return entity
        }
        #expect(Self.hash(entities) == Self.hash(stamped))
    }

    @Test("the description is sha256-canonical: and 64 hex digits; empty is all zeros; the old form is told apart")
    func description() {
        let prefix = "sha256-canonical:"
        #expect(ContentHash().description == prefix + String(repeating: "0", count: 64))
        let text = Self.hash(Self.entities()).description
        #expect(text.hasPrefix(prefix))
        #expect(text.count == prefix.count + 64)
        #expect(text.dropFirst(prefix.count).allSatisfy { "0123456789abcdef".contains($0) })
        #expect(ContentHash.isComparable(text))
        #expect(!ContentHash.isComparable("sha256-sum:" + String(repeating: "0", count: 64)))
    }

    @Test("adding a set of entities twice doubles, it does not cancel")
    func noCancellation() {
        let entities = Self.entities()
        #expect(Self.hash(entities + entities) != Self.hash(entities))
        #expect(Self.hash(entities + entities) != ContentHash())
    }
}
