import SpeakEasyData
import Testing

/// Conditional blob requests (`If-Match`, `If-None-Match`, `If-Modified-Since`,
/// `If-Unmodified-Since`) as ``BlobConditions`` defines them: a read that fails `If-None-Match` or
/// `If-Modified-Since` is notModified (304); every other failure is preconditionFailed (412), except
/// `If-None-Match: *` on a write to a blob that exists (409 BlobAlreadyExists). Times compare in
/// whole seconds, as HTTP dates have them.
@Suite("Storage conformance: conditional blob requests")
struct ConformanceBlobConditions {
    static let container = Conformance.container
    static let original = Array("original".utf8)
    static let changed = Array("changed".utf8)

    /// Puts the original blob and returns its properties.
    func putOriginal(_ account: any StorageAccount) async throws -> BlobProperties {
        #expect(
            try await account.putBlob(
                container: Self.container,
                name: "b",
                contentType: "text/plain",
                data: Self.original
            )
        )
        return try #require(try await account.blobProperties(container: Self.container).first)
    }

    func put(_ account: any StorageAccount, _ data: [UInt8], _ conditions: BlobConditions) async throws -> Bool {
        try await account.putBlob(
            container: Self.container,
            name: "b",
            contentType: "text/plain",
            data: data,
            conditions: conditions
        )
    }

    func read(_ account: any StorageAccount, _ conditions: BlobConditions) async throws -> [UInt8]? {
        try await account.blob(container: Self.container, name: "b", range: nil, conditions: conditions)?.data
    }

    func seconds(_ time: EdmDateTime, _ delta: Int64) throws -> EdmDateTime {
        try #require(time.adding(ticks: delta * EdmDateTime.ticksPerSecond))
    }

    // MARK: Reads

    @Test(
        "a read with If-Match of the current ETag or * gives the blob; a stale one is preconditionFailed",
        arguments: ConformanceBackend.all
    )
    func readIfMatch(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let properties = try await putOriginal(account)
            #expect(try await read(account, BlobConditions(ifMatch: properties.etag)) == Self.original)
            #expect(try await read(account, BlobConditions(ifMatch: "*")) == Self.original)
            let error = await storageError {
                _ = try await read(account, BlobConditions(ifMatch: "\"0x8D000000000000\""))
            }
            #expect(error?.reason == .preconditionFailed)
            #expect(error?.code == "ConditionNotMet")
        }
    }

    @Test(
        "a read with If-None-Match of the current ETag is notModified; of another ETag it gives the blob",
        arguments: ConformanceBackend.all
    )
    func readIfNoneMatch(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let properties = try await putOriginal(account)
            let error = await storageError { _ = try await read(account, BlobConditions(ifNoneMatch: properties.etag)) }
            #expect(error?.reason == .notModified)
            #expect(try await read(account, BlobConditions(ifNoneMatch: "\"0x8D000000000000\"")) == Self.original)
            _ = try await account.putBlob(
                container: Self.container,
                name: "b",
                contentType: "text/plain",
                data: Self.changed
            )
            #expect(
                try await read(account, BlobConditions(ifNoneMatch: properties.etag)) == Self.changed,
                "a rewrite makes the old ETag another"
            )
        }
    }

    @Test(
        "a read with If-Modified-Since gives the blob only when modified after it, to the second",
        arguments: ConformanceBackend.all
    )
    func readIfModifiedSince(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let modified = try await putOriginal(account).lastModified
            #expect(
                try await read(account, BlobConditions(ifModifiedSince: try seconds(modified, -1))) == Self.original
            )
            for since in [modified, try seconds(modified, 1), try seconds(modified, 3_600)] {
                let error = await storageError { _ = try await read(account, BlobConditions(ifModifiedSince: since)) }
                #expect(error?.reason == .notModified, "If-Modified-Since \(since), modified \(modified)")
            }
        }
    }

    @Test(
        "a read with If-Unmodified-Since gives the blob unless modified after it, else preconditionFailed",
        arguments: ConformanceBackend.all
    )
    func readIfUnmodifiedSince(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let modified = try await putOriginal(account).lastModified
            #expect(try await read(account, BlobConditions(ifUnmodifiedSince: modified)) == Self.original)
            #expect(
                try await read(account, BlobConditions(ifUnmodifiedSince: try seconds(modified, 3_600)))
                    == Self.original
            )
            let error = await storageError {
                _ = try await read(account, BlobConditions(ifUnmodifiedSince: try seconds(modified, -1)))
            }
            #expect(error?.reason == .preconditionFailed)
            #expect(error?.code == "ConditionNotMet")
        }
    }

    @Test("conditions apply to a ranged read before its range", arguments: ConformanceBackend.all)
    func conditionsBeforeRange(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let properties = try await putOriginal(account)
            let blob = try await account.blob(
                container: Self.container,
                name: "b",
                range: ByteRange(first: 2, last: 3),
                conditions: BlobConditions(ifMatch: properties.etag)
            )
            #expect(blob?.data == Array("ig".utf8))
            let error = await storageError {
                _ = try await account.blob(
                    container: Self.container,
                    name: "b",
                    range: ByteRange(first: 2, last: 3),
                    conditions: BlobConditions(ifNoneMatch: properties.etag)
                )
            }
            #expect(error?.reason == .notModified)
        }
    }

    // MARK: Writes

    @Test(
        "a write with If-Match of the current ETag is written; a stale one is preconditionFailed and writes nothing",
        arguments: ConformanceBackend.all
    )
    func writeIfMatch(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let stale = try await putOriginal(account).etag
            #expect(try await put(account, Self.changed, BlobConditions(ifMatch: stale)))
            let current = try #require(try await account.blobProperties(container: Self.container).first)
            #expect(current.etag != stale)
            let error = await storageError {
                _ = try await put(account, Self.original, BlobConditions(ifMatch: stale))
            }
            #expect(error?.reason == .preconditionFailed)
            #expect(error?.code == "ConditionNotMet")
            #expect(try await account.blobData(container: Self.container, name: "b") == Self.changed)
            #expect(try await account.blobProperties(container: Self.container) == [current])
        }
    }

    @Test("conditions are checked even when the content is already there", arguments: ConformanceBackend.all)
    func conditionsBeforeSameContent(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let properties = try await putOriginal(account)
            #expect(try await put(account, Self.original, BlobConditions(ifMatch: properties.etag)) == false)
            let error = await storageError {
                _ = try await put(account, Self.original, BlobConditions(ifMatch: "\"0x8D000000000000\""))
            }
            #expect(error?.reason == .preconditionFailed)
        }
    }

    @Test(
        "a write with If-Match to a blob that does not exist is preconditionFailed and creates nothing",
        arguments: ConformanceBackend.all
    )
    func writeIfMatchMissing(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account async throws in
            for ifMatch in ["*", "\"0x8D000000000000\""] {
                let error = await storageError {
                    _ = try await put(account, Self.original, BlobConditions(ifMatch: ifMatch))
                }
                #expect(error?.reason == .preconditionFailed, "If-Match \(ifMatch)")
            }
            #expect(try await account.blobProperties(container: Self.container).isEmpty)
        }
    }

    @Test(
        "a write with If-None-Match: * creates a blob, and is alreadyExists (BlobAlreadyExists) once it exists",
        arguments: ConformanceBackend.all
    )
    func createOnly(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account async throws in
            let createOnly = BlobConditions(ifNoneMatch: "*")
            #expect(try await put(account, Self.original, createOnly))
            let error = await storageError {
                _ = try await put(account, Self.changed, createOnly)
            }
            #expect(error?.reason == .alreadyExists)
            #expect(error?.code == "BlobAlreadyExists")
            #expect(try await account.blobData(container: Self.container, name: "b") == Self.original)
        }
    }

    @Test(
        "a write with If-None-Match of the current ETag, or If-Modified-Since not met, is preconditionFailed",
        arguments: ConformanceBackend.all
    )
    func writeIfNoneMatchAndModifiedSince(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let properties = try await putOriginal(account)
            for conditions in [
                BlobConditions(ifNoneMatch: properties.etag), BlobConditions(ifModifiedSince: properties.lastModified),
            ] {
                let error = await storageError {
                    _ = try await put(account, Self.changed, conditions)
                }
                #expect(error?.reason == .preconditionFailed, "\(conditions)")
            }
            #expect(try await account.blobData(container: Self.container, name: "b") == Self.original)
            let since = try seconds(properties.lastModified, -1)
            #expect(try await put(account, Self.changed, BlobConditions(ifModifiedSince: since)))
        }
    }

    // MARK: Deletes

    @Test(
        "a delete with a stale If-Match or a failed If-Unmodified-Since is preconditionFailed and keeps the blob",
        arguments: ConformanceBackend.all
    )
    func deleteConditions(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            let properties = try await putOriginal(account)
            let failing = [
                BlobConditions(ifMatch: "\"0x8D000000000000\""),
                BlobConditions(ifUnmodifiedSince: try seconds(properties.lastModified, -1)),
            ]
            for conditions in failing {
                let error = await storageError {
                    try await account.deleteBlob(container: Self.container, name: "b", conditions: conditions)
                }
                #expect(error?.reason == .preconditionFailed, "\(conditions)")
                #expect(error?.code == "ConditionNotMet", "\(conditions)")
            }
            #expect(try await account.blobData(container: Self.container, name: "b") == Self.original)
            try await account.deleteBlob(
                container: Self.container,
                name: "b",
                conditions: BlobConditions(ifMatch: properties.etag)
            )
            #expect(try await account.blobData(container: Self.container, name: "b") == nil)
        }
    }
}
