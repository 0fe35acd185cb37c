import SpeakEasyData
import TestSupport
import Testing

/// `entityDigests`: the keys and content digest of every entity, read in bulk, so a writer can tell
/// new, changed and unchanged entities apart.
@Suite("Storage conformance: entity digests")
struct ConformanceDigests {
    static let entities: [Entity] =
        [
            Entity(partitionKey: "p", rowKey: "every-type", properties: SampleProperties.storable),
            Entity(partitionKey: "p", rowKey: "empty"),
            Entity(
                partitionKey: "O'Brien",
                rowKey: "名前 😀",
                properties: [Property("Z", .string("last")), Property("A", .int64(-1))]
            ),
            Entity(partitionKey: "", rowKey: "", properties: [Property("Flag", .boolean(false))]),
        ]
        + (0..<20).map {
            Entity(partitionKey: "q\($0 % 4)", rowKey: "r\($0)", properties: [Property("N", .int32(Int32($0)))])
        }

    func expectedDigests(_ entities: [Entity]) -> [KeyedDigest] {
        entities.sorted { $0.key < $1.key }.map {
            KeyedDigest(partitionKey: $0.partitionKey, rowKey: $0.rowKey, digest: EntityDigest($0))
        }
    }

    @Test(
        "the digests are the EntityDigest of what was written, in key order, page by page",
        arguments: ConformanceBackend.all,
        [1, 2, 7, 5_000]
    )
    func digestsOfWritten(backend: ConformanceBackend, limit: Int) async throws {
        try await backend.withAccount { account in
            try await account.write(Array(Self.entities.reversed()), table: Conformance.table, mode: .insert)
            let digests = try await walkDigests(account, table: Conformance.table, limit: limit)
            #expect(digests == expectedDigests(Self.entities))
            #expect(digests.count == 24)
        }
    }

    @Test("a partition's digests are that partition's only", arguments: ConformanceBackend.all, [1, 3, 5_000])
    func partitionDigests(backend: ConformanceBackend, limit: Int) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.entities, table: Conformance.table, mode: .insert)
            let digests = try await walkDigests(account, table: Conformance.table, partition: "q2", limit: limit)
            #expect(digests == expectedDigests(Self.entities.filter { $0.partitionKey == "q2" }))
            #expect(digests.map(\.rowKey) == ["r10", "r14", "r18", "r2", "r6"])
            #expect(try await walkDigests(account, table: Conformance.table, partition: "nobody", limit: limit).isEmpty)
        }
    }

    @Test("forEachDigest reads the same digests as the pages", arguments: ConformanceBackend.all)
    func forEachDigest(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.entities, table: Conformance.table, mode: .insert)
            var digests: [KeyedDigest] = []
            try await account.forEachDigest(table: Conformance.table, pageSize: 5) { digests.append($0) }
            #expect(digests == expectedDigests(Self.entities))
        }
    }

    @Test(
        "a missing table, or an empty one, has no digests and no continuation",
        arguments: ConformanceBackend.all,
        [Conformance.table, Conformance.missingTable]
    )
    func noDigests(backend: ConformanceBackend, table: String) async throws {
        try await backend.withAccount { account in
            let page = try await account.entityDigests(table: table, partition: nil, from: nil, limit: 10)
            #expect(page.digests.isEmpty)
            #expect(page.next == nil)
        }
    }

    @Test(
        "the digest follows the content: not the order of properties, the Timestamp or the ETag",
        arguments: ConformanceBackend.all
    )
    func digestFollowsContent(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let written = Entity(
                partitionKey: "p",
                rowKey: "r",
                properties: [Property("B", .string("b")), Property("A", .int32(1))]
            )
            let sorted = Entity(
                partitionKey: "p",
                rowKey: "r",
                properties: [Property("A", .int32(1)), Property("B", .string("b"))]
            )
            try await account.write([written], table: Conformance.table, mode: .insert)
            let first = try await walkDigests(account, table: Conformance.table, limit: 10)
            #expect(first.map(\.digest) == [EntityDigest(sorted)])
            try await account.write([sorted], table: Conformance.table, mode: .insertOrReplace)
            #expect(
                try await walkDigests(account, table: Conformance.table, limit: 10) == first,
                "a rewrite of the same content keeps the digest"
            )
            try await account.write(
                [Entity(partitionKey: "p", rowKey: "r", properties: [Property("C", .double(0.5))])],
                table: Conformance.table,
                mode: .insertOrMerge
            )
            let merged = Entity(
                partitionKey: "p",
                rowKey: "r",
                properties: [Property("A", .int32(1)), Property("B", .string("b")), Property("C", .double(0.5))]
            )
            #expect(
                try await walkDigests(account, table: Conformance.table, limit: 10).map(\.digest) == [
                    EntityDigest(merged)
                ],
                "a merge's digest is the merged content's"
            )
            #expect(EntityDigest(merged) != EntityDigest(sorted))
        }
    }
}
