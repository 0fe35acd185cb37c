package import SpeakEasyModel

/// The conditional headers of a blob request (`If-Match`, `If-None-Match`, `If-Modified-Since`,
/// `If-Unmodified-Since`), checked against the blob as it stands, as Azure checks them.
package struct BlobConditions: Hashable, Sendable {
    package var ifMatch: String?
    package var ifNoneMatch: String?
    package var ifModifiedSince: EdmDateTime?
    package var ifUnmodifiedSince: EdmDateTime?

    package init(ifMatch: String? = nil, ifNoneMatch: String? = nil, ifModifiedSince: EdmDateTime? = nil, ifUnmodifiedSince: EdmDateTime? = nil) {
        self.ifMatch = ifMatch
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.ifUnmodifiedSince = ifUnmodifiedSince
    }

    package static let none = BlobConditions()

    /// Throws unless the request may go ahead on `current` (nil: no such blob).
    ///
    /// A read whose `If-None-Match` or `If-Modified-Since` fails is "not modified" (304); every other
    /// failure is 412, except `If-None-Match: *` on a write to a blob that exists (409
    /// BlobAlreadyExists). HTTP dates have whole seconds, so Last-Modified is compared in seconds.
    package func check(_ current: BlobProperties?, reading: Bool, account: String = "", blob: String) throws(StorageError) {
        func failed(_ what: String) -> StorageError {
            StorageError(.preconditionFailed, account: account, "blob '\(blob)': \(what)", code: "ConditionNotMet")
        }
        guard let current else {
            if ifMatch != nil { throw failed("If-Match names a blob that does not exist") }
            return
        }
        let modified = current.lastModified.ticks / EdmDateTime.ticksPerSecond
        if let ifMatch, ifMatch != "*", ifMatch != current.etag { throw failed("If-Match \(ifMatch) is not the blob's ETag \(current.etag)") }
        if let since = ifUnmodifiedSince, modified > since.ticks / EdmDateTime.ticksPerSecond {
            throw failed("it was modified after If-Unmodified-Since \(since)")
        }
        if let ifNoneMatch, ifNoneMatch == "*" || ifNoneMatch == current.etag {
            if reading { throw StorageError(.notModified, account: account, "blob '\(blob)' has ETag \(current.etag)") }
            if ifNoneMatch == "*" {
                throw StorageError(.alreadyExists, account: account, "blob '\(blob)' already exists", code: "BlobAlreadyExists")
            }
            throw failed("If-None-Match \(ifNoneMatch) is the blob's ETag")
        }
        if let since = ifModifiedSince, modified <= since.ticks / EdmDateTime.ticksPerSecond {
            if reading { throw StorageError(.notModified, account: account, "blob '\(blob)' was not modified since \(since)") }
            throw failed("it was not modified since If-Modified-Since \(since)")
        }
    }
}
