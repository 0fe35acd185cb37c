import SpeakEasyData
import Testing

/// Azure's Update, Merge and Delete Entity with If-Match: optimistic concurrency by ETag.
@Suite("Storage conformance: ETags and If-Match")
struct ConformanceETags {
    static let original = Entity(
        partitionKey: "p",
        rowKey: "r",
        properties: [Property("A", .int32(1)), Property("B", .string("old"))]
    )
    static let change = Entity(
        partitionKey: "p",
        rowKey: "r",
        properties: [Property("B", .string("new")), Property("C", .boolean(true))]
    )

    /// The content an update with `change` leaves.
    static func updated(merge: Bool) -> Entity {
        merge ? original.merging(change).canonical : change.canonical
    }

    /// Writes the original entity and returns its ETag.
    func writeOriginal(_ account: any StorageAccount) async throws -> String {
        try await account.write([Self.original], table: Conformance.table, mode: .insert)
        return try #require(try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r")?.etag)
    }

    @Test(
        "update with the current ETag replaces or merges, and returns the new ETag the entity then has",
        arguments: ConformanceBackend.all,
        [false, true]
    )
    func updateWithCurrentETag(backend: ConformanceBackend, merge: Bool) async throws {
        try await backend.withAccount { account in
            let etag = try await writeOriginal(account)
            let newETag = try await account.update(
                EncodedEntity(Self.change),
                table: Conformance.table,
                merge: merge,
                ifMatch: etag
            )
            #expect(newETag != etag)
            let read = try #require(try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r"))
            #expect(read.etag == newETag)
            #expect(read.canonical == Self.updated(merge: merge))
        }
    }

    @Test("If-Match * updates whatever the ETag", arguments: ConformanceBackend.all, [false, true])
    func updateWithStar(backend: ConformanceBackend, merge: Bool) async throws {
        try await backend.withAccount { account in
            _ = try await writeOriginal(account)
            let newETag = try await account.update(
                EncodedEntity(Self.change),
                table: Conformance.table,
                merge: merge,
                ifMatch: "*"
            )
            let read = try #require(try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r"))
            #expect(read.etag == newETag)
            #expect(read.canonical == Self.updated(merge: merge))
        }
    }

    @Test(
        "update with a stale ETag is preconditionFailed and changes nothing",
        arguments: ConformanceBackend.all,
        [false, true]
    )
    func updateWithStaleETag(backend: ConformanceBackend, merge: Bool) async throws {
        try await backend.withAccount { account in
            let stale = try await writeOriginal(account)
            let current = try await account.update(
                EncodedEntity(Self.original),
                table: Conformance.table,
                merge: false,
                ifMatch: stale
            )
            let error = await storageError {
                _ = try await account.update(
                    EncodedEntity(Self.change),
                    table: Conformance.table,
                    merge: merge,
                    ifMatch: stale
                )
            }
            #expect(error?.reason == .preconditionFailed)
            #expect(error?.code == "UpdateConditionNotSatisfied")
            let read = try #require(try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r"))
            #expect(read.etag == current)
            #expect(read.canonical == Self.original)
        }
    }

    @Test("delete with the current ETag or * deletes the entity", arguments: ConformanceBackend.all, [false, true])
    func deleteWithETag(backend: ConformanceBackend, star: Bool) async throws {
        try await backend.withAccount { account in
            let etag = try await writeOriginal(account)
            try await account.write([Entity(partitionKey: "p", rowKey: "s")], table: Conformance.table, mode: .insert)
            try await account.deleteEntity(
                table: Conformance.table,
                partitionKey: "p",
                rowKey: "r",
                ifMatch: star ? "*" : etag
            )
            #expect(try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r") == nil)
            #expect(try await allEntities(account, table: Conformance.table).map(\.key) == [EntityKey("p", "s")])
        }
    }

    @Test("delete with a stale ETag is preconditionFailed and keeps the entity", arguments: ConformanceBackend.all)
    func deleteWithStaleETag(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            let stale = try await writeOriginal(account)
            try await account.write([Self.original], table: Conformance.table, mode: .insertOrReplace)
            let error = await storageError {
                try await account.deleteEntity(table: Conformance.table, partitionKey: "p", rowKey: "r", ifMatch: stale)
            }
            #expect(error?.reason == .preconditionFailed)
            #expect(error?.code == "UpdateConditionNotSatisfied")
            #expect(
                try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r")?.canonical
                    == Self.original
            )
        }
    }

    /// What each of update, merge and delete does to an entity that is not there, whatever If-Match says.
    static let missingEntityOperations: [(String, @Sendable (any StorageAccount, String) async throws -> Void)] = [
        (
            "update",
            { _ = try await $0.update(EncodedEntity(change), table: Conformance.table, merge: false, ifMatch: $1) }
        ),
        (
            "merge",
            { _ = try await $0.update(EncodedEntity(change), table: Conformance.table, merge: true, ifMatch: $1) }
        ),
        (
            "delete",
            { try await $0.deleteEntity(table: Conformance.table, partitionKey: "p", rowKey: "r", ifMatch: $1) }
        ),
    ]

    @Test(
        "update, merge or delete of a missing entity is notFound (ResourceNotFound), with * or an ETag",
        arguments: ConformanceBackend.all
    )
    func missingEntity(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            // An ETag this entity once had: it was deleted since.
            let old = try await writeOriginal(account)
            try await account.deleteEntity(table: Conformance.table, partitionKey: "p", rowKey: "r", ifMatch: "*")
            for (name, operation) in Self.missingEntityOperations {
                for ifMatch in ["*", old] {
                    let error = await storageError { try await operation(account, ifMatch) }
                    #expect(error?.reason == .notFound, "\(name), If-Match \(ifMatch)")
                    #expect(error?.code == "ResourceNotFound", "\(name), If-Match \(ifMatch)")
                }
            }
            #expect(
                try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r") == nil,
                "update and merge create nothing"
            )
        }
    }

    @Test(
        "the ETag changes on every write, whatever the mode, also when the content does not",
        arguments: ConformanceBackend.all
    )
    func etagChangesOnEveryWrite(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            var etags = [try await writeOriginal(account)]
            var timestamps: [EdmDateTime] = []
            func record(_ returned: String? = nil) async throws {
                let read = try #require(
                    try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r")
                )
                if let returned { #expect(read.etag == returned) }
                etags.append(try #require(read.etag))
                timestamps.append(try #require(read.timestamp))
            }
            try await account.write([Self.original], table: Conformance.table, mode: .insertOrReplace)
            try await record()
            try await account.write([Self.original], table: Conformance.table, mode: .insertOrMerge)
            try await record()
            try await record(
                try await account.update(
                    EncodedEntity(Self.original),
                    table: Conformance.table,
                    merge: false,
                    ifMatch: etags.last!
                )
            )
            try await record(
                try await account.update(
                    EncodedEntity(Self.original),
                    table: Conformance.table,
                    merge: true,
                    ifMatch: "*"
                )
            )
            #expect(Set(etags).count == 5, "\(etags)")
            #expect(timestamps == timestamps.sorted(), "Timestamps never go back: \(timestamps)")
            #expect(
                try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r")?.canonical
                    == Self.original
            )
        }
    }
}
