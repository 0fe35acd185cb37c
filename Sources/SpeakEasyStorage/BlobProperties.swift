internal import Crypto
package import SpeakEasyModel

/// A blob's stored properties.
package struct BlobProperties: Hashable, Sendable {
    package var name: String
    package var contentType: String
    /// Base64 of the MD5 of the content, as Azure's Content-MD5.
    package var contentMD5: String
    package var size: Int
    package var etag: String
    package var lastModified: EdmDateTime
    /// Cache-Control, Content-Disposition, -Encoding and -Language, as the last write set them.
    package var headers: BlobContentHeaders
    /// The blob's `x-ms-meta-*` pairs.
    package var metadata: [String: String]
    /// False for a blob that has staged blocks and no content yet (Put Block without Put Block
    /// List), as List Blobs shows it with `include=uncommittedblobs`: see ``uncommitted(name:)``.
    package var isCommitted: Bool

    package init(
        name: String,
        contentType: String,
        contentMD5: String,
        size: Int,
        etag: String,
        lastModified: EdmDateTime,
        headers: BlobContentHeaders = .none,
        metadata: [String: String] = [:],
        isCommitted: Bool = true
    ) {
        self.name = name
        self.contentType = contentType
        self.contentMD5 = contentMD5
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
        self.headers = headers
        self.metadata = metadata
        self.isCommitted = isCommitted
    }

    /// A blob that has only staged blocks, as Azure lists it: no content, so a size of 0 and no
    /// content type, MD5, ETag or Last-Modified (nor Creation-Time) at all. ``lastModified`` is
    /// ``EdmDateTime/min`` only because the type needs a value.
    package static func uncommitted(name: String) -> BlobProperties {
        BlobProperties(
            name: name,
            contentType: "",
            contentMD5: "",
            size: 0,
            etag: "",
            lastModified: .min,
            isCommitted: false
        )
    }

    /// Azure's Content-MD5 of `data`: the MD5 in base64.
    package static func contentMD5(of data: [UInt8]) -> String {
        Base64.encode(Array(Insecure.MD5.hash(data: data)))
    }
}

/// A blob's properties and its content, or the part of it a range asked for.
package struct Blob: Hashable, Sendable {
    package var properties: BlobProperties
    package var data: [UInt8]
    /// Which bytes `data` holds: all of them unless a range was asked for.
    package var range: Range<Int>

    package init(properties: BlobProperties, data: [UInt8], range: Range<Int>) {
        self.properties = properties
        self.data = data
        self.range = range
    }
}

/// A page of a container's blobs; `nextMarker` continues the listing (nil: the last page).
package struct BlobPage: Hashable, Sendable {
    package var blobs: [BlobProperties]
    package var nextMarker: String?

    package init(blobs: [BlobProperties], nextMarker: String?) {
        self.blobs = blobs
        self.nextMarker = nextMarker
    }
}
