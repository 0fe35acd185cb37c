import SpeakEasyData
import Testing

/// Writes of any size land whole, however a backend cuts them into transaction groups (at most 100
/// entities of one partition under 4 MiB, ``TransactionGroups``). Only a group is atomic: a failed
/// write leaves its failing group unwritten, and may leave other groups written.
@Suite("Storage conformance: batches and transaction groups")
struct ConformanceBatches {
    /// `count` entities of one partition, in reverse key order.
    static func partition(
        _ name: String,
        count: Int,
        properties: (Int) -> [Property] = { [Property("N", .int32(Int32($0)))] }
    ) -> [Entity] {
        (0..<count).reversed().map {
            Entity(partitionKey: name, rowKey: "row\(1_000_000 + $0)", properties: properties($0))
        }
    }

    @Test(
        "exactly 100 entities of one partition land, in every mode",
        arguments: ConformanceBackend.all,
        WriteMode.allCases
    )
    func oneFullGroup(backend: ConformanceBackend, mode: WriteMode) async throws {
        try await backend.withAccount { account in
            let entities = Self.partition("p", count: TransactionGroups.maximumEntities)
            try await account.write(entities, table: Conformance.table, mode: mode)
            let walked = try await walk(account, table: Conformance.table, limit: 1_000)
            #expect(walked.entities.count == 100)
            #expect(walked.entities.map(\.canonical) == inKeyOrder(entities))
        }
    }

    @Test("101 entities of one partition, one more than a group, land", arguments: ConformanceBackend.all)
    func oneOverAGroup(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let entities = Self.partition("p", count: 101)
            try await account.write(entities, table: Conformance.table, mode: .insert)
            #expect(try await allEntities(account, table: Conformance.table).map(\.canonical) == inKeyOrder(entities))
        }
    }

    @Test(
        "a large write over many partitions and groups, interleaved, lands whole",
        arguments: ConformanceBackend.all,
        [WriteMode.insert, .insertOrReplace]
    )
    func manyGroups(backend: ConformanceBackend, mode: WriteMode) async throws {
        try await backend.withAccount { account in
            let sizes = [("a", 1), ("b", 99), ("c", 100), ("d", 101), ("e", 250), ("f", 200), ("g", 3)]
            var entities = sizes.flatMap { Self.partition($0.0, count: $0.1) }
            var random = SplitMix64(seed: 754)
            entities.shuffle(using: &random)
            try await account.write(entities, table: Conformance.table, mode: mode)
            let walked = try await walk(account, table: Conformance.table, limit: 1_000)
            #expect(walked.entities.count == 754)
            #expect(walked.entities.map(\.canonical) == inKeyOrder(entities))
            for (partition, count) in sizes {
                #expect(
                    try await allEntities(account, table: Conformance.table, partition: partition).count == count,
                    "partition \(partition)"
                )
            }
        }
    }

    /// 150 entities of 30,000 characters each: 4.5 MB, over the 4 MiB of one request.
    @Test("a write over 4 MiB in one partition lands whole", arguments: ConformanceBackend.all)
    func overFourMebibytes(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let entities = Self.partition("p", count: 150) { index in
                [
                    Property(
                        "Text",
                        .string(String(repeating: Character(UnicodeScalar(UInt8(97 + index % 26))), count: 30_000))
                    )
                ]
            }
            let bytes = entities.map { EncodedEntity($0).properties.count }.reduce(0, +)
            #expect(bytes > 4 * 1024 * 1024)
            try await account.write(entities, table: Conformance.table, mode: .insert)
            let read = try await allEntities(account, table: Conformance.table)
            #expect(read.count == 150)
            #expect(read.map(\.canonical) == inKeyOrder(entities))
        }
    }

    @Test("insertOrMerge over many groups merges into every entity", arguments: ConformanceBackend.all)
    func mergeManyGroups(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let old = ["a", "b"].flatMap { name in Self.partition(name, count: 150) }
            try await account.write(old, table: Conformance.table, mode: .insert)
            let update = ["a", "b"].flatMap { name in
                Self.partition(name, count: 150) { [Property("M", .string("m\($0)"))] }
            }
            try await account.write(update, table: Conformance.table, mode: .insertOrMerge)
            let expected = ["a", "b"].flatMap { name in
                Self.partition(name, count: 150) {
                    [Property("M", .string("m\($0)")), Property("N", .int32(Int32($0)))]
                }
            }
            #expect(try await allEntities(account, table: Conformance.table).map(\.canonical) == inKeyOrder(expected))
        }
    }

    @Test(
        "a failed insert writes nothing of the failing group, and repeating it with insertOrReplace finishes the write",
        arguments: ConformanceBackend.all
    )
    func failedWriteIsFinishedByRepeating(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let existing = Entity(
                partitionKey: "b",
                rowKey: "row1000001",
                properties: [Property("Old", .boolean(true))]
            )
            try await account.write([existing], table: Conformance.table, mode: .insert)
            let entities = Self.partition("a", count: 3) + Self.partition("b", count: 3)
            let error = await storageError {
                try await account.write(entities, table: Conformance.table, mode: .insert)
            }
            #expect(error?.reason == .alreadyExists)
            // Partition b is one group; partition a's may or may not have been written.
            #expect(
                try await allEntities(account, table: Conformance.table, partition: "b").map(\.canonical) == [existing]
            )
            try await account.write(entities, table: Conformance.table, mode: .insertOrReplace)
            #expect(try await allEntities(account, table: Conformance.table).map(\.canonical) == inKeyOrder(entities))
        }
    }
}
