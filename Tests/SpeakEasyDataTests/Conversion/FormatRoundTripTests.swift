import SpeakEasyData
import TestSupport
import Testing

/// Every lossless format, to and from every other, and through the store: no value or type changes.
@Suite("Round trips between every pair of formats")
struct FormatRoundTripTests {
    /// A lossless way to write entities: a format with its options.
    struct Target: CustomTestStringConvertible, Sendable {
        var name: String
        var options: EntityFiles.WriteOptions
        var keepsETag: Bool
        /// CSV puts every entity's properties in the file's column order.
        var keepsPropertyOrder: Bool { options.format != .csv }
        var testDescription: String { name }

        static func make(
            _ name: String,
            _ format: DataFormat,
            metadata: JSONMetadata = .minimal,
            typed: Bool = false,
            delimiter: UInt8 = UInt8(ascii: ","),
            keepsETag: Bool = true
        ) -> Target {
            var options = EntityFiles.WriteOptions(format: format)
            options.metadata = metadata
            options.typedCSV = typed
            options.delimiter = delimiter
            return Target(name: name, options: options, keepsETag: keepsETag)
        }
    }

    static let targets: [Target] = [
        .make("Atom", .atom),
        .make("JSON minimal", .json),
        .make("JSON full", .json, metadata: .full),
        .make("NDJSON", .ndjson),
        .make("typed CSV", .csv, typed: true, keepsETag: false),
        .make("typed TSV", .csv, typed: true, delimiter: 0x09, keepsETag: false),
    ]

    static let entities: [Entity] = [
        Entity(
            partitionKey: "Events",
            rowKey: "it's a \"key\", with spaces",
            timestamp: .at("2026-01-02T03:04:05.1234567Z"),
            etag: "W/\"datetime'2026-01-02T03%3A04%3A05.1234567Z'\"",
            properties: SampleProperties.everyType
        ),
        Entity(
            partitionKey: "speakers",
            rowKey: "𝄞 <&> ]]>",
            timestamp: .at("2026-01-02T03:04:05Z"),
            etag: "W/\"x\"",
            properties: [
                Property("Name", .string("Ada\r\nLovelace, \"Countess\"\t<b>&amp;</b>")),
                Property("Bio", .string(String(repeating: "Ünïcode 🎤 and \"quotes\", commas\n", count: 64 << 10 / 32))),
                Property("Empty", .string("")),
            ]
        ),
        // Fewer properties than the first: absent must stay absent, not become empty strings.
        Entity(
            partitionKey: "Events",
            rowKey: "sparse",
            timestamp: .at("2026-01-02T03:04:05.5Z"),
            etag: "W/\"y\"",
            properties: [Property("Int32Max", .int32(7))]
        ),
    ]

    static func write(_ entities: [Entity], _ target: Target) throws -> [UInt8] {
        try EntityFiles.bytes(of: entities, options: target.options)
    }

    static func read(_ bytes: [UInt8], _ target: Target) throws -> [Entity] {
        var reader = try EntityFiles.reader(
            for: ByteInput(name: target.name, bytes: bytes),
            format: target.options.format,
            options: EntityFiles.ReadOptions(delimiter: target.options.delimiter)
        )
        var entities: [Entity] = []
        while let entity = try reader.next() { entities.append(entity) }
        return entities
    }

    /// What survives a format: every value, type and key; the ETag only where the format has a place
    /// for it, and the order of properties only where rows need not share columns.
    static func comparable(_ entities: [Entity], keepETag: Bool, keepOrder: Bool = true) -> [Entity] {
        entities.map { entity in
            var entity = entity
            if !keepETag { entity.etag = nil }
            if !keepOrder { entity.properties.sort { $0.name < $1.name } }
            return entity
        }
    }

    @Test("A → B → A keeps every value, type, key and Timestamp", arguments: targets, targets)
    func pair(from: Target, to: Target) throws {
        let inA = try Self.read(Self.write(Self.entities, from), from)
        let inB = try Self.read(Self.write(inA, to), to)
        let back = try Self.read(Self.write(inB, from), from)
        let keepETag = from.keepsETag && to.keepsETag
        let keepOrder = from.keepsPropertyOrder && to.keepsPropertyOrder
        #expect(
            Self.comparable(inB, keepETag: keepETag, keepOrder: keepOrder)
                == Self.comparable(Self.entities, keepETag: keepETag, keepOrder: keepOrder)
        )
        #expect(
            Self.comparable(back, keepETag: keepETag, keepOrder: keepOrder)
                == Self.comparable(Self.entities, keepETag: keepETag, keepOrder: keepOrder)
        )
    }

    @Test("DateTime with 0 to 7 fractional digits keeps its ticks in every format", arguments: targets)
    func fractionalDigits(target: Target) throws {
        let dates = [
            "2026-05-01T10:00:00Z", "2026-05-01T10:00:00.1Z", "2026-05-01T10:00:00.12Z", "2026-05-01T10:00:00.123Z",
            "2026-05-01T10:00:00.1234Z", "2026-05-01T10:00:00.12345Z", "2026-05-01T10:00:00.123456Z",
            "2026-05-01T10:00:00.1234567Z",
        ]
        let entities = dates.enumerated().map { index, text in
            Entity(
                partitionKey: "Events",
                rowKey: String(index),
                properties: [Property("EventDate", .dateTime(try! EdmDateTime(parsing: text)))]
            )
        }
        let written = try Self.write(entities, target)
        #expect(try Self.read(written, target) == entities)
        // Always written with exactly 7 digits.
        #expect(String(decoding: written, as: UTF8.self).contains("2026-05-01T10:00:00.1200000Z"))
    }

    @Test("through the SQLite account: every value and type comes back", arguments: targets)
    func throughStore(target: Target) async throws {
        try await withTemporaryDirectory { directory in
            let store = try StorageLocation.local(path: directory + "/store.sqlite").open(readOnly: false)
            try await store.createTableIfNotExists("events")
            let entities = try Self.read(Self.write(Self.entities, target), target)
            _ = try await store.write(entities, table: "events", mode: .insert)
            var back: [Entity] = []
            try await store.forEachEntity(table: "events") { back.append($0) }
            let keepOrder = target.keepsPropertyOrder
            let byKey = Dictionary(
                uniqueKeysWithValues: Self.comparable(back.map(\.content), keepETag: false, keepOrder: keepOrder).map {
                    ("\($0.partitionKey)|\($0.rowKey)", $0)
                }
            )
            for entity in Self.comparable(Self.entities.map(\.content), keepETag: false, keepOrder: keepOrder) {
                #expect(byKey["\(entity.partitionKey)|\(entity.rowKey)"] == entity)
            }
            // And out again through the format.
            let again = try Self.read(Self.write(back, target), target)
            #expect(
                Set(Self.comparable(again.map(\.content), keepETag: false, keepOrder: keepOrder))
                    == Set(Self.comparable(Self.entities.map(\.content), keepETag: false, keepOrder: keepOrder))
            )
        }
    }
}
