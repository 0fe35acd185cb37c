package import SpeakEasyModel

/// The conditional headers of a blob request (`If-Match`, `If-None-Match`, `If-Modified-Since`,
/// `If-Unmodified-Since`), checked against the blob as it stands, as Azure checks them.
package struct BlobConditions: Hashable, Sendable {
    package var ifMatch: String?
    package var ifNoneMatch: String?
    package var ifModifiedSince: EdmDateTime?
    package var ifUnmodifiedSince: EdmDateTime?

    package init(
        ifMatch: String? = nil,
        ifNoneMatch: String? = nil,
        ifModifiedSince: EdmDateTime? = nil,
        ifUnmodifiedSince: EdmDateTime? = nil
    ) {
        self.ifMatch = ifMatch
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.ifUnmodifiedSince = ifUnmodifiedSince
    }

    package static let none = BlobConditions()

    /// Throws unless the request may go ahead on `current` (nil: no such blob).
    ///
    /// Reads follow Azure's rule ("Specifying conditional headers for Blob service operations"):
    /// the read goes ahead when `If-Match && If-Unmodified-Since && (If-None-Match ||
    /// If-Modified-Since)` holds, each header that is absent counting as true; `If-Match` and
    /// `If-None-Match` may list ETags with commas. A failed `If-Match` or `If-Unmodified-Since` is 412,
    /// a failed `If-None-Match`/`If-Modified-Since` pair 304, and `If-None-Match: *` is 400
    /// UnsatisfiableCondition (Azurite: src/blob/conditions/ReadConditionalHeadersValidator.ts).
    ///
    /// Writes take one ETag a header and at most `If-Match` with `If-Unmodified-Since` or
    /// `If-None-Match` with `If-Modified-Since`; anything more is 400
    /// MultipleConditionHeadersNotSupported (WriteConditionalHeadersValidator.ts
    /// `validateCombinations`). A failure is 412, except `If-None-Match: *` on a blob that exists
    /// (409 BlobAlreadyExists). An ETag header decides a write alone: with `If-Match` (or
    /// `If-None-Match`) present, the date beside it is not evaluated, in RFC 9110 §13.2.2's order.
    /// HTTP dates have whole seconds, so Last-Modified is compared in seconds.
    package func check(
        _ current: BlobProperties?,
        reading: Bool,
        account: String = "",
        blob: String
    ) throws(StorageError) {
        func failed(_ what: String) -> StorageError {
            StorageError(.preconditionFailed, account: account, "blob '\(blob)': \(what)", code: "ConditionNotMet")
        }
        let matches = Self.etags(ifMatch)
        let noneMatches = Self.etags(ifNoneMatch)
        if reading, noneMatches.contains("*") {
            throw StorageError(
                .invalidInput,
                account: account,
                "If-None-Match: * can never hold for a read",
                code: "UnsatisfiableCondition"
            )
        }
        if !reading { try checkWriteCombination(matches: matches, noneMatches: noneMatches, account: account) }
        guard let current else {
            if ifMatch != nil { throw failed("If-Match names a blob that does not exist") }
            return
        }
        let modified = current.lastModified.ticks / EdmDateTime.ticksPerSecond
        let matchHolds = ifMatch == nil || matches.contains("*") || matches.contains(current.etag)
        let unmodifiedHolds = ifUnmodifiedSince.map { modified <= $0.ticks / EdmDateTime.ticksPerSecond }
        let noneMatchHolds = ifNoneMatch.map { _ in !noneMatches.contains("*") && !noneMatches.contains(current.etag) }
        let modifiedHolds = ifModifiedSince.map { modified > $0.ticks / EdmDateTime.ticksPerSecond }
        if !matchHolds { throw failed("If-Match \(ifMatch ?? "") does not name the blob's ETag \(current.etag)") }
        // A write's If-Match that holds decides alone: If-Unmodified-Since is not evaluated (RFC 9110
        // §13.2.2; Azurite: WriteConditionalHeadersValidator.ts, tests/blob/conditions.test.ts).
        if unmodifiedHolds == false, reading || ifMatch == nil {
            throw failed("it was modified after If-Unmodified-Since \(ifUnmodifiedSince.map { "\($0)" } ?? "")")
        }
        if reading {
            if (noneMatchHolds == false && modifiedHolds != true) || (modifiedHolds == false && noneMatchHolds != true)
            {
                throw StorageError(
                    .notModified,
                    account: account,
                    "blob '\(blob)' has not changed (ETag \(current.etag))"
                )
            }
            return
        }
        if noneMatchHolds == false {
            if noneMatches.contains("*") {
                throw StorageError(
                    .alreadyExists,
                    account: account,
                    "blob '\(blob)' already exists",
                    code: "BlobAlreadyExists"
                )
            }
            throw failed("If-None-Match \(ifNoneMatch ?? "") is the blob's ETag")
        }
        // Likewise If-None-Match that holds: If-Modified-Since is not evaluated.
        if modifiedHolds == false, ifNoneMatch == nil {
            throw failed("it was not modified since If-Modified-Since \(ifModifiedSince.map { "\($0)" } ?? "")")
        }
    }

    /// The conditions a write may combine (see ``check(_:reading:account:blob:)``).
    private func checkWriteCombination(matches: [String], noneMatches: [String], account: String) throws(StorageError) {
        let present = [ifMatch != nil, ifUnmodifiedSince != nil, ifNoneMatch != nil, ifModifiedSince != nil]
        let count = present.filter { $0 }.count
        let mixed = count == 2 && (present[0] || present[1]) && (present[2] || present[3])
        guard matches.count <= 1, noneMatches.count <= 1, count <= 2, !mixed else {
            throw StorageError(
                .invalidInput,
                account: account,
                "Multiple condition headers are not supported.",
                code: "MultipleConditionHeadersNotSupported"
            )
        }
    }

    /// The ETags of an `If-Match` or `If-None-Match` value: comma-separated, spaces around each
    /// dropped (RFC 9110's list syntax).
    static func etags(_ value: String?) -> [String] {
        guard let value else { return [] }
        return value.split(separator: ",").map {
            String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        }.filter { !$0.isEmpty }
    }
}
