package import SpeakEasyCore
package import SpeakEasyModel
package import SpeakEasyStorage

/// `seed --photos DIR`: which file of the directory is which speaker's photo, checked before anything
/// is written, then uploaded into the public photo container under the blob name each speaker's
/// ImageUrl gives (the store sets Content-MD5; the content type is the image's, by its bytes).
package struct PhotoPlan: Sendable {
    /// A speaker as far as its photo goes.
    package struct Speaker: Sendable {
        package var rowKey: String
        package var name: String?
        package var imageUrl: String?

        package init(rowKey: String, name: String?, imageUrl: String?) {
            self.rowKey = rowKey
            self.name = name
            self.imageUrl = imageUrl
        }

        /// A speaker entity's keys and photo properties; nil for any other entity.
        package init?(_ entity: Entity) {
            guard entity.partitionKey == DataContract.speakersPartition else { return nil }
            func text(_ name: String) -> String? {
                if case .string(let value) = entity[name] { return value }
                return nil
            }
            self.init(rowKey: entity.rowKey, name: text("Name"), imageUrl: text("ImageUrl"))
        }

        /// `'Ada Lovelace' (<RowKey>)`, or the RowKey alone.
        package var description: String { name.map { "'\($0)' (\(rowKey))" } ?? rowKey }
    }

    package struct Upload: Sendable {
        package var file: String
        package var blob: String
        package var contentType: String
    }

    /// A speaker that gets no photo, and why.
    package struct Unmatched: Sendable {
        package var speaker: Speaker
        package var reason: String
    }

    package var directory: String
    package var uploads: [Upload] = []
    package var speakersWithoutPhoto: [Unmatched] = []
    /// The blob each speaker with a photo gets it from, by the speaker's RowKey.
    package var blobOfSpeaker: [String: String] = [:]
    package var filesWithoutSpeaker: [String] = []

    /// Matches the directory's files to the speakers; a matched file that is not a JPEG or PNG image,
    /// or cannot be read, throws (nothing has been written yet).
    package init(directory: String, rule: PhotoNameRule, speakers: [Speaker]) throws(FileError) {
        self.directory = directory
        let files = Set(try FileSystem.fileNames(in: directory))
        var fileOfBlob: [String: String] = [:]
        for speaker in speakers {
            guard let url = speaker.imageUrl else {
                speakersWithoutPhoto.append(Unmatched(speaker: speaker, reason: "has no ImageUrl"))
                continue
            }
            guard let blob = BlobURL(url), blob.container == DataContract.photoContainer else {
                speakersWithoutPhoto.append(
                    Unmatched(
                        speaker: speaker,
                        reason: "ImageUrl '\(url)' is not a blob URL in container '\(DataContract.photoContainer)'"
                    )
                )
                continue
            }
            guard let file = rule.fileName(blob: blob.blob, name: speaker.name, rowKey: speaker.rowKey) else {
                speakersWithoutPhoto.append(
                    Unmatched(speaker: speaker, reason: "has no Name for --photo-name '\(rule.template)'")
                )
                continue
            }
            guard files.contains(file) else {
                speakersWithoutPhoto.append(Unmatched(speaker: speaker, reason: "no file '\(file)' in \(directory)"))
                continue
            }
            if let planned = fileOfBlob[blob.blob] {
                if planned == file { blobOfSpeaker[speaker.rowKey] = blob.blob }
                if planned != file {
                    speakersWithoutPhoto.append(
                        Unmatched(
                            speaker: speaker,
                            reason: "its blob '\(blob.blob)' is another speaker's, from file '\(planned)'"
                        )
                    )
                }
                continue
            }
            let path = directory + "/" + file
            guard let format = ImageFormat(sniffing: try FileSystem.readFile(path)) else {
                throw FileError(
                    path: path,
                    reason: "is not a JPEG or PNG image (the photo of speaker \(speaker.description))",
                    kind: .malformedInput
                )
            }
            fileOfBlob[blob.blob] = file
            blobOfSpeaker[speaker.rowKey] = blob.blob
            uploads.append(Upload(file: file, blob: blob.blob, contentType: format.contentType))
        }
        let used = Set(fileOfBlob.values)
        filesWithoutSpeaker = files.filter { !used.contains($0) }.sorted()
    }

    /// The ImageUrl each speaker with a photo must have to name its upload in an account whose blob
    /// URLs `url(blob)` makes, for those whose ImageUrl names another account or endpoint: a file's
    /// ImageUrl may name where its photo was before, not where it is uploaded now.
    package func imageURLRewrites(
        of speakers: [Speaker],
        url: (_ blob: String) -> String
    ) -> [String: String] {
        var rewrites: [String: String] = [:]
        for speaker in speakers {
            guard let blob = blobOfSpeaker[speaker.rowKey], let given = speaker.imageUrl else { continue }
            let uploaded = url(blob)
            // The scheme and host (with the port) first, then account, container and blob as parsed,
            // so that a URL that differs only in its escaping is kept.
            let origin = { (url: String) in
                Array(url.lowercased().split(separator: "/", omittingEmptySubsequences: false).prefix(3))
            }
            if origin(given) != origin(uploaded) || BlobURL(given) != BlobURL(uploaded) {
                rewrites[speaker.rowKey] = uploaded
            }
        }
        return rewrites
    }

    /// Creates the photo container with public read access (one that exists keeps its access), and
    /// uploads the photos a few at a time; returns how many were written (the rest were there with
    /// the same content and type).
    package func upload(
        to store: any StorageAccount,
        progress: @escaping @Sendable (SeedProgress) -> Void = { _ in }
    ) async throws -> Int {
        try await store.createContainerIfNotExists(DataContract.photoContainer, access: .container)
        let counts = Locked((done: 0, written: 0))
        let total = uploads.count
        try await forEachConcurrently(uploads, limit: Seeder.photosAtOnce) { [directory] upload in
            let data = try FileSystem.readFile(directory + "/" + upload.file)
            let written = try await store.putBlob(
                container: DataContract.photoContainer,
                name: upload.blob,
                contentType: upload.contentType,
                data: data
            )
            let done = counts.withLock { counts in
                counts.done += 1
                if written { counts.written += 1 }
                return counts.done
            }
            progress(SeedProgress(phase: .photos, done: done, total: total))
        }
        return counts.withLock { $0.written }
    }
}
