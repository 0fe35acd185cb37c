import SpeakEasyData
import Testing

@Suite("Storage conformance: staged blocks and block lists")
struct ConformanceBlocks {
    static let container = Conformance.container

    @Test(
        "a block list makes the blob its blocks in order; committed blocks can be kept, others are dropped",
        arguments: ConformanceBackend.all
    )
    func commit(backend: ConformanceBackend) async throws {
        try await backend.withAccount(containers: [Self.container]) { account in
            for (id, text) in [("YQ==", "alpha "), ("Yg==", "beta "), ("Yw==", "gamma ")] {
                try await account.stageBlock(
                    container: Self.container,
                    name: "big",
                    blockID: id,
                    data: Array(text.utf8)
                )
            }
            #expect(
                try await account.blobData(container: Self.container, name: "big") == nil,
                "staging leaves the blob alone"
            )
            let first = try await account.commitBlocks(
                container: Self.container,
                name: "big",
                blocks: [.init(id: "Yw==", source: .latest), .init(id: "YQ==", source: .uncommitted)],
                contentType: "text/plain",
                conditions: .none
            )
            #expect(try await account.blobData(container: Self.container, name: "big") == Array("gamma alpha ".utf8))
            #expect(first.size == 12)
            #expect(first.contentType == "text/plain")
            // "beta" was staged but not listed: gone with the commit.
            let error = await storageError {
                try await account.commitBlocks(
                    container: Self.container,
                    name: "big",
                    blocks: [.init(id: "Yg==", source: .latest)],
                    contentType: "text/plain",
                    conditions: .none
                )
            }
            #expect(error?.code == "InvalidBlockList")
            try await account.stageBlock(
                container: Self.container,
                name: "big",
                blockID: "ZA==",
                data: Array("delta".utf8)
            )
            let second = try await account.commitBlocks(
                container: Self.container,
                name: "big",
                blocks: [
                    .init(id: "YQ==", source: .committed), .init(id: "ZA==", source: .uncommitted),
                    .init(id: "Yw==", source: .latest),
                ],
                contentType: "text/plain",
                conditions: BlobConditions(ifMatch: first.etag)
            )
            #expect(
                try await account.blobData(container: Self.container, name: "big") == Array("alpha deltagamma ".utf8)
            )
            #expect(second.etag != first.etag)
            let stale = await storageError {
                try await account.commitBlocks(
                    container: Self.container,
                    name: "big",
                    blocks: [.init(id: "YQ==", source: .committed)],
                    contentType: "text/plain",
                    conditions: BlobConditions(ifMatch: first.etag)
                )
            }
            #expect(stale?.reason == .preconditionFailed)
            let missing = await storageError {
                try await account.stageBlock(container: "missing", name: "b", blockID: "YQ==", data: [1])
            }
            #expect(missing?.code == "ContainerNotFound")
        }
    }
}
