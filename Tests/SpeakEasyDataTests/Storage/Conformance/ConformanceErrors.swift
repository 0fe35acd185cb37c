import SpeakEasyData
import Testing

/// A request that must fail, and the error it must fail with: the reason, and the status and Azure
/// code that `serve` answers with and the Azure client maps back (``StorageError+HTTP``).
struct ErrorCase: Sendable, CustomTestStringConvertible {
    typealias Step = @Sendable (any StorageAccount) async throws -> Void

    let testDescription: String
    let reason: StorageError.Reason
    let status: Int
    let azureCode: String
    let setUp: Step
    let request: Step

    init(
        _ description: String,
        _ reason: StorageError.Reason,
        _ status: Int,
        _ azureCode: String,
        setUp: @escaping Step = { _ in },
        _ request: @escaping Step
    ) {
        testDescription = description
        self.reason = reason
        self.status = status
        self.azureCode = azureCode
        self.setUp = setUp
        self.request = request
    }
}

@Suite("Storage conformance: errors")
struct ConformanceErrors {
    static let table = Conformance.table
    static let missing = Conformance.missingTable
    static let container = Conformance.container
    static let entity = Entity(partitionKey: "p", rowKey: "r", properties: [Property("A", .int32(1))])
    static let stale = "W/\"datetime'2000-01-01T00%3A00%3A00.0000000Z'\""
    static let staleBlob = "\"0x8D000000000000\""

    static func writeEntity(_ account: any StorageAccount) async throws {
        try await account.write([entity], table: table, mode: .insert)
    }

    static func putBlob(_ account: any StorageAccount) async throws {
        _ = try await account.putBlob(
            container: container,
            name: "b",
            contentType: "text/plain",
            data: Array("0123456789".utf8)
        )
    }

    static func etag(_ account: any StorageAccount) async throws -> String {
        try #require(try await account.blobProperties(container: container).first?.etag)
    }

    static let cases: [ErrorCase] = [
        // Tables
        ErrorCase("a write to a missing table", .notFound, 404, "TableNotFound") {
            try await $0.write([entity], table: missing, mode: .insertOrReplace)
        },
        ErrorCase("a query of a missing table", .notFound, 404, "TableNotFound") {
            _ = try await $0.query(table: missing, .all, from: nil, limit: 10)
        },
        ErrorCase("an update in a missing table", .notFound, 404, "TableNotFound") {
            _ = try await $0.update(EncodedEntity(entity), table: missing, merge: false, ifMatch: "*")
        },
        ErrorCase("a delete in a missing table", .notFound, 404, "TableNotFound") {
            try await $0.deleteEntity(table: missing, partitionKey: "p", rowKey: "r", ifMatch: "*")
        },
        ErrorCase("deleting a missing table", .notFound, 404, "ResourceNotFound") { try await $0.deleteTable(missing) },
        // Entities
        ErrorCase("an insert of an existing entity", .alreadyExists, 409, "EntityAlreadyExists", setUp: writeEntity) {
            try await $0.write([entity], table: table, mode: .insert)
        },
        ErrorCase("an update of a missing entity", .notFound, 404, "ResourceNotFound") {
            _ = try await $0.update(EncodedEntity(entity), table: table, merge: false, ifMatch: "*")
        },
        ErrorCase("a merge of a missing entity", .notFound, 404, "ResourceNotFound") {
            _ = try await $0.update(EncodedEntity(entity), table: table, merge: true, ifMatch: "*")
        },
        ErrorCase("a delete of a missing entity", .notFound, 404, "ResourceNotFound") {
            try await $0.deleteEntity(table: table, partitionKey: "p", rowKey: "r", ifMatch: "*")
        },
        ErrorCase(
            "an update with a stale ETag",
            .preconditionFailed,
            412,
            "UpdateConditionNotSatisfied",
            setUp: writeEntity
        ) {
            _ = try await $0.update(EncodedEntity(entity), table: table, merge: false, ifMatch: stale)
        },
        ErrorCase(
            "a merge with a stale ETag",
            .preconditionFailed,
            412,
            "UpdateConditionNotSatisfied",
            setUp: writeEntity
        ) {
            _ = try await $0.update(EncodedEntity(entity), table: table, merge: true, ifMatch: stale)
        },
        ErrorCase(
            "a delete with a stale ETag",
            .preconditionFailed,
            412,
            "UpdateConditionNotSatisfied",
            setUp: writeEntity
        ) {
            try await $0.deleteEntity(table: table, partitionKey: "p", rowKey: "r", ifMatch: stale)
        },
        // Blobs
        ErrorCase("a blob put into a missing container", .notFound, 404, "ContainerNotFound") {
            _ = try await $0.putBlob(container: "missing", name: "b", contentType: "text/plain", data: [1])
        },
        ErrorCase("listing a missing container", .notFound, 404, "ContainerNotFound") {
            _ = try await $0.blobProperties(container: "missing")
        },
        ErrorCase("deleting a missing blob", .notFound, 404, "BlobNotFound") {
            try await $0.deleteBlob(container: container, name: "b", conditions: .none)
        },
        ErrorCase("a range past the end of a blob", .invalidRange, 416, "InvalidRange", setUp: putBlob) {
            _ = try await $0.blob(container: container, name: "b", range: ByteRange(first: 10), conditions: .none)
        },
        ErrorCase("a read with a stale If-Match", .preconditionFailed, 412, "ConditionNotMet", setUp: putBlob) {
            _ = try await $0.blob(
                container: container,
                name: "b",
                range: nil,
                conditions: BlobConditions(ifMatch: staleBlob)
            )
        },
        ErrorCase("a read with If-None-Match of the current ETag", .notModified, 304, "ConditionNotMet", setUp: putBlob)
        {
            _ = try await $0.blob(
                container: container,
                name: "b",
                range: nil,
                conditions: BlobConditions(ifNoneMatch: try await etag($0))
            )
        },
        ErrorCase("a write with a stale If-Match", .preconditionFailed, 412, "ConditionNotMet", setUp: putBlob) {
            _ = try await $0.putBlob(
                container: container,
                name: "b",
                contentType: "text/plain",
                data: [1],
                conditions: BlobConditions(ifMatch: staleBlob)
            )
        },
        ErrorCase(
            "a write with If-None-Match: * to an existing blob",
            .alreadyExists,
            409,
            "BlobAlreadyExists",
            setUp: putBlob
        ) {
            _ = try await $0.putBlob(
                container: container,
                name: "b",
                contentType: "text/plain",
                data: [1],
                conditions: BlobConditions(ifNoneMatch: "*")
            )
        },
        ErrorCase("a delete with a stale If-Match", .preconditionFailed, 412, "ConditionNotMet", setUp: putBlob) {
            try await $0.deleteBlob(container: container, name: "b", conditions: BlobConditions(ifMatch: staleBlob))
        },
    ]

    @Test(
        "each failure is a StorageError with Azure's reason, status and code",
        arguments: ConformanceBackend.all,
        cases
    )
    func failure(backend: ConformanceBackend, errorCase: ErrorCase) async throws {
        try await backend.withAccount(tables: [Self.table], containers: [Self.container]) { account in
            try await errorCase.setUp(account)
            let error = await storageError { try await errorCase.request(account) }
            #expect(error?.reason == errorCase.reason)
            #expect(error?.httpStatus == errorCase.status)
            #expect(error?.azureCode == errorCase.azureCode)
            #expect(
                error.flatMap { StorageError.Reason(httpStatus: $0.httpStatus) } == errorCase.reason,
                "the status maps back onto the reason"
            )
            #expect(error?.message.isEmpty == false)
        }
    }

    @Test("reads of a missing table or entity answer without an error", arguments: ConformanceBackend.all)
    func readsOfMissing(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            #expect(try await account.entity(table: Self.missing, partitionKey: "p", rowKey: "r") == nil)
            #expect(try await account.entity(table: Self.table, partitionKey: "p", rowKey: "r") == nil)
            #expect(try await account.holdsEntities(table: Self.missing) == false)
            let digests = try await account.entityDigests(table: Self.missing, partition: "p", from: nil, limit: 10)
            #expect(digests.digests.isEmpty && digests.next == nil)
            #expect(try await account.blob(container: Self.container, name: "b", range: nil, conditions: .none) == nil)
            #expect(try await account.containerAccess("nowhere") == nil)
        }
    }
}
