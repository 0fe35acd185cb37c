import HTTPTypes

/// The header fields of Azure's replies that HTTP does not name.
extension HTTPField.Name {
    static let dataServiceVersion = Self("DataServiceVersion")!
    static let preferenceApplied = Self("Preference-Applied")!
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let xMsContinuationNextTableName = Self("x-ms-continuation-NextTableName")!
    static let contentMD5 = Self("Content-MD5")!
    static let xMsAccessTier = Self("x-ms-access-tier")!
    static let xMsAccessTierInferred = Self("x-ms-access-tier-inferred")!
    static let xMsBlobContentMD5 = Self("x-ms-blob-content-md5")!
    static let xMsBlobContentLength = Self("x-ms-blob-content-length")!
    static let xMsBlobPublicAccess = Self("x-ms-blob-public-access")!
    static let xMsBlobType = Self("x-ms-blob-type")!
    static let xMsClientRequestID = Self("x-ms-client-request-id")!
    static let xMsCreationTime = Self("x-ms-creation-time")!
    static let xMsDeleteTypePermanent = Self("x-ms-delete-type-permanent")!
    static let xMsHasImmutabilityPolicy = Self("x-ms-has-immutability-policy")!
    static let xMsHasLegalHold = Self("x-ms-has-legal-hold")!
    static let xMsLeaseState = Self("x-ms-lease-state")!
    static let xMsLeaseStatus = Self("x-ms-lease-status")!
    static let xMsRequestID = Self("x-ms-request-id")!
    static let xMsRequestServerEncrypted = Self("x-ms-request-server-encrypted")!
    static let xMsServerEncrypted = Self("x-ms-server-encrypted")!
    static let xMsVersion = Self("x-ms-version")!
}
