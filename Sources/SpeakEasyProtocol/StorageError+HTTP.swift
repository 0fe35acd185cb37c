package import SpeakEasyStorage

/// Between a ``StorageError`` and an HTTP response of Azure Storage, both ways: `serve` maps an error
/// onto a response (the ``WireError``s' `init(_: StorageError)`), the Azure client a response onto an
/// error (``StorageHTTPClient``'s `storageError`).
extension StorageError.Reason {
    /// The status Azure answers with.
    package var httpStatus: Int {
        switch self {
        case .notFound: 404
        case .alreadyExists: 409
        case .preconditionFailed: 412
        case .notModified: 304
        case .invalidRange: 416
        case .invalidInput: 400
        case .unsupportedByService: 501
        case .busy: 503
        case .unauthorized: 403
        case .corrupt: 500
        case .unavailable: 500
        case .unreachable: 503
        case .refused: 403
        }
    }

    /// Azure's error code when the request gives no more specific one.
    package var defaultAzureCode: String {
        switch self {
        case .notFound: "ResourceNotFound"
        case .alreadyExists: "ResourceAlreadyExists"
        case .preconditionFailed: "ConditionNotMet"
        case .notModified: "ConditionNotMet"
        case .invalidRange: "InvalidRange"
        case .invalidInput: "InvalidInput"
        case .unsupportedByService: "NotImplemented"
        case .busy: "ServerBusy"
        case .unauthorized: "AuthorizationFailure"
        case .corrupt: "InternalError"
        case .unavailable: "InternalError"
        case .unreachable: "ServerBusy"
        case .refused: "AuthenticationFailed"
        }
    }

    /// The reason an HTTP error status stands for (a status that is not an error maps to nil).
    package init?(httpStatus: Int) {
        switch httpStatus {
        case 304: self = .notModified
        case 400, 405, 411, 413, 414, 415: self = .invalidInput
        case 501: self = .unsupportedByService
        case 401, 403: self = .refused
        case 404: self = .notFound
        case 409: self = .alreadyExists
        case 412: self = .preconditionFailed
        case 416: self = .invalidRange
        case 408, 429, 503: self = .busy
        case 500...599: self = .unavailable
        default: return nil
        }
    }
}

extension StorageError {
    /// The status to answer with.
    package var httpStatus: Int { reason.httpStatus }
    /// The Azure error code to answer with: the specific one when known.
    package var azureCode: String { code ?? reason.defaultAzureCode }
}
