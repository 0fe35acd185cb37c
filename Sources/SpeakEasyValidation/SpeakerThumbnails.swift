import SpeakEasyModel
import SpeakEasyStorage

/// The speakers' photos, read from the account for the HTML report to show inline.
///
/// The report is one file that opens from an e-mail or a CI artifact, so a photo travels inside it
/// (a `data:` URI) and its size is the report's size: only photos up to ``maxBytes`` are taken, at
/// most ``maxCount`` of them (the report's busiest speakers first), and only when their first bytes
/// say they are JPEG, PNG, GIF or WebP, whatever the blob's Content-Type claims (an SVG could carry
/// script). A photo the checks found missing or foreign is simply not shown.
enum SpeakerThumbnails {
    static let maxBytes = 48 * 1024
    static let maxCount = 100

    /// Adds the photos of the overview's speakers to it, and a note saying which were left out and why.
    static func load(_ store: any StorageAccount, into overview: inout ReportOverview) async throws {
        let container = DataContract.photoContainer
        var tooLarge = 0
        var pastLimit = 0
        for speaker in overview.speakers + overview.speakersWithoutEvents {
            guard let url = speaker.imageUrl, let blob = BlobURL(url), blob.container == container,
                blob.account == store.accountName, overview.thumbnails[speaker.rowKey] == nil
            else { continue }
            guard overview.thumbnails.count < maxCount else {
                pastLimit += 1
                continue
            }
            guard
                let properties = try await store.blobProperties(
                    container: container,
                    name: blob.blob,
                    conditions: .none
                )
            else { continue }
            guard properties.size <= maxBytes else {
                tooLarge += 1
                continue
            }
            guard let data = try await store.blobData(container: container, name: blob.blob),
                let type = mediaType(of: data)
            else { continue }
            overview.thumbnails[speaker.rowKey] = ReportOverview.Thumbnail(mediaType: type, data: data)
        }
        var notes: [String] = []
        if tooLarge > 0 { notes.append("\(tooLarge) larger than \(maxBytes / 1024) KB") }
        if pastLimit > 0 { notes.append("\(pastLimit) past the first \(maxCount)") }
        if !notes.isEmpty {
            overview.thumbnailNote = "Photos not shown, to keep the report small: \(notes.joined(separator: ", "))."
        }
    }

    /// The image type the bytes begin with; nil for anything else.
    static func mediaType(of data: [UInt8]) -> String? {
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            data.count >= offset + magic.count && Array(data[offset..<offset + magic.count]) == magic
        }
        if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
        return nil
    }
}
