import SpeakEasyModel
import SpeakEasyStorage

/// The photo rules: every speaker's ImageUrl is a blob of the container, with an image content type;
/// every blob is used; the container is readable anonymously.
enum PhotoCheck {
    static func run(_ store: any StorageAccount, speakers: SpeakerIndex, into log: inout FindingLog) async throws {
        let container = DataContract.photoContainer
        let containerLocation = FindingLocation(.container(container, blob: nil))
        guard let access = try await store.containerAccess(container) else {
            log.add(.photosAccess, "the photo container '\(container)' does not exist", at: containerLocation)
            for number in speakers.order {
                guard let speaker = speakers[number], let url = speaker.imageUrl else { continue }
                log.add(
                    .photosMissing,
                    "ImageUrl '\(url)' names a blob, but container '\(container)' does not exist",
                    at: speakerLocation(speaker)
                )
            }
            return
        }
        if access == .private {
            log.add(
                .photosAccess,
                "the photo container '\(container)' is private: the app reads photos anonymously (set public access to 'blob' or 'container')",
                at: containerLocation
            )
        }
        let blobs = try await store.blobProperties(container: container)
        var byName: [String: BlobProperties] = [:]
        for blob in blobs { byName[blob.name] = blob }
        let account = store.accountName
        var used: [String: FindingLocation] = [:]
        for number in speakers.order {
            guard let speaker = speakers[number], let url = speaker.imageUrl else { continue }
            // Not a URL at all: contract.image-url has said so, from the data alone.
            if log.isOn(.contractImageURL), Validator.imageURLProblem(url) != nil { continue }
            let here = speakerLocation(speaker)
            guard let parsed = BlobURL(url) else {
                log.add(.photosMissing, "ImageUrl '\(Validator.excerpt(url))' is not a blob URL", at: here)
                continue
            }
            guard parsed.container == container else {
                log.add(
                    .photosMissing,
                    "ImageUrl '\(Validator.excerpt(url))' names container '\(parsed.container)', not the photo container '\(container)'",
                    at: here
                )
                continue
            }
            // Another name of this account's own endpoint (serve answers for the local account's too)
            // is this account when the URL opens there.
            if parsed.account != account, await !store.opensOnThisEndpoint(url) {
                log.add(
                    .photosMissing,
                    "ImageUrl '\(Validator.excerpt(url))' names account '\(parsed.account)', not this account, '\(account)'",
                    at: here
                )
                continue
            }
            guard let blob = byName[parsed.blob] else {
                log.add(
                    .photosMissing,
                    "ImageUrl names blob '\(parsed.blob)', which is not in container '\(container)'",
                    at: here,
                    related: [containerLocation]
                )
                continue
            }
            if used[blob.name] == nil {
                used[blob.name] = here
                if !blob.contentType.lowercased().hasPrefix("image/") {
                    log.add(
                        .photosContentType,
                        "blob '\(blob.name)' has Content-Type '\(blob.contentType)', not an image type: browsers will not show it",
                        at: FindingLocation(.container(container, blob: blob.name)),
                        related: [here]
                    )
                }
                if log.isOn(.photosContentMD5) {
                    try await checkContent(blob, of: container, in: store, speaker: here, into: &log)
                }
            }
        }
        for blob in blobs where used[blob.name] == nil {
            log.add(
                .photosUnused,
                "blob '\(blob.name)' is no speaker's photo",
                at: FindingLocation(.container(container, blob: blob.name))
            )
        }
    }

    /// A photo's bytes still have the length and Content-MD5 it was stored with: a blob changed
    /// behind them (a file edited in place, a damaged copy) fails a client that checks the MD5.
    private static func checkContent(
        _ blob: BlobProperties,
        of container: String,
        in store: any StorageAccount,
        speaker: FindingLocation,
        into log: inout FindingLog
    ) async throws {
        guard !blob.contentMD5.isEmpty,
            let read = try await store.blob(container: container, name: blob.name, range: nil, conditions: .none)
        else { return }
        let actual = BlobProperties.contentMD5(of: read.data)
        guard actual != blob.contentMD5 || read.data.count != blob.size else { return }
        log.add(
            .photosContentMD5,
            "blob '\(blob.name)' holds \(read.data.count) bytes with MD5 \(actual), not the \(blob.size) bytes with Content-MD5 \(blob.contentMD5) it was stored with: its content changed behind them",
            at: FindingLocation(.container(container, blob: blob.name)),
            related: [speaker]
        )
    }

    static func speakerLocation(_ speaker: SpeakerIndex.Entry) -> FindingLocation {
        FindingLocation(
            .table(DataContract.table),
            partitionKey: DataContract.speakersPartition,
            rowKey: speaker.rowKey
        )
    }
}
