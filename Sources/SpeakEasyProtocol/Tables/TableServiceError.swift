package import SpeakEasyModel
package import SpeakEasyStorage

/// A Table service error as it travels over the wire: the HTTP status, Azure's error code and the
/// message, plus the index of the failing operation when it comes from an entity group transaction.
///
/// Both sides use it: the server throws it and renders it (``reply(to:requestID:time:)``, the body
/// by ``TableErrorBody``), the client reads one back from a response. It is separate from
/// ``StorageError`` because the wire needs statuses a storage account never produces (413 for a
/// batch over 4 MiB, 415 for a format the version does not speak) and codes a reason alone
/// cannot tell apart (`PropertiesNeedValue` and `InvalidDuplicateRow` are both 400).
/// ``BlobServiceError`` is the Blob service's own.
package struct TableServiceError: WireError, Equatable {
    package var status: Int
    package var code: String
    package var message: String
    /// The 0-based index of the batch operation that failed; the body's message then starts `<index>:`.
    package var operationIndex: Int?

    package init(status: Int, code: String, _ message: String, operationIndex: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.operationIndex = operationIndex
    }

    package init(status: Int, code: String, message: String) {
        self.init(status: status, code: code, message)
    }

    /// The wire form of a storage account's error: its specific Azure code when it has one.
    package init(_ error: StorageError, operationIndex: Int? = nil) {
        self.init(status: error.httpStatus, code: error.azureCode, error.message, operationIndex: operationIndex)
    }

    /// A refused request: the code's message, then the detail that says why.
    package init(_ error: AuthorizationError) {
        self.init(
            status: error.httpStatus,
            code: error.code.rawValue,
            error.detail.isEmpty ? error.message : "\(error.message) \(error.detail)"
        )
    }

    /// A `$filter` that does not parse, 400 InvalidInput, or names what Azure does not implement, 501
    /// NotImplemented (the reasons' own codes); the message keeps the offset.
    package init(_ error: FilterSyntaxError) {
        let reason: StorageError.Reason = error.kind == .invalidInput ? .invalidInput : .unsupportedByService
        self.init(status: reason.httpStatus, code: reason.defaultAzureCode, error.description)
    }

    /// The reply: the body in the format the request's `Accept` asks for (JSON at its level, or Atom).
    package func reply(to head: RequestHead, requestID: String, time: EdmDateTime) -> WireReply {
        let format = TableWireFormat(answering: head)
        return WireReply(
            status: status,
            headers: [
                WireReply.Header("Content-Type", format.errorContentType),
                WireReply.Header("X-Content-Type-Options", "nosniff"),
                WireReply.Header("Cache-Control", "no-cache"),
            ],
            body: TableErrorBody.write(self, format: format, requestID: requestID, time: time)
        )
    }

    /// The same error, attributed to a batch operation.
    package func at(operation index: Int) -> TableServiceError {
        var copy = self
        copy.operationIndex = index
        return copy
    }

    package var description: String {
        "\(status) \(code): " + (operationIndex.map { "operation \($0): " } ?? "") + message
    }
}

/// The errors request parsing reports, with the codes and texts Azure answers with.
extension TableServiceError {
    /// 400 InvalidInput: a body, URL or header the service cannot read.
    package static func invalidInput(_ message: String = "One of the request inputs is not valid.") -> Self {
        Self(status: 400, code: "InvalidInput", message)
    }

    /// 400 OutOfRangeInput: a key or value outside what the service allows (a `?` in a key).
    package static func outOfRange(_ message: String = "One of the request inputs is out of range.") -> Self {
        Self(status: 400, code: "OutOfRangeInput", message)
    }

    /// 400 PropertiesNeedValue: PartitionKey or RowKey missing from the body.
    package static var propertiesNeedValue: Self {
        Self(status: 400, code: "PropertiesNeedValue", "The values are not specified for all properties in the entity.")
    }

    /// 400 InvalidValueType: a value that does not fit its declared type.
    package static func invalidValueType(_ detail: String? = nil) -> Self {
        Self(status: 400, code: "InvalidValueType", "The value specified is invalid." + (detail.map { " \($0)" } ?? ""))
    }

    /// 400 DuplicatePropertiesSpecified: a property given twice.
    package static func duplicateProperties(_ name: String) -> Self {
        Self(status: 400, code: "DuplicatePropertiesSpecified", "A property is specified more than one time. (\(name))")
    }

    /// 400 TooManyProperties: more than 252 user properties.
    package static var tooManyProperties: Self {
        Self(status: 400, code: "TooManyProperties", "The entity contains more properties than allowed.")
    }

    /// 400 EntityTooLarge: more than 1 MiB by Azure's formula.
    package static var entityTooLarge: Self {
        Self(status: 400, code: "EntityTooLarge", "The entity is larger than the maximum allowed size (1MB).")
    }

    /// 400 PropertyValueTooLarge: a string or binary value over 64 KiB.
    package static func propertyValueTooLarge(_ name: String) -> Self {
        Self(
            status: 400,
            code: "PropertyValueTooLarge",
            "The property value exceeds the maximum allowed size (64KB). (\(name))"
        )
    }

    /// 400 PropertyNameInvalid: not an identifier, or a name the service reserves.
    package static func propertyNameInvalid(_ name: String) -> Self {
        Self(status: 400, code: "PropertyNameInvalid", "The property name is invalid. (\(name))")
    }

    /// 400 PropertyNameTooLong: more than 255 characters.
    package static func propertyNameTooLong(_ name: String) -> Self {
        Self(
            status: 400,
            code: "PropertyNameTooLong",
            "The property name exceeds the maximum allowed length (255). (\(name.prefix(32))…)"
        )
    }

    /// 413 RequestBodyTooLarge: a batch over 4 MiB.
    package static var requestBodyTooLarge: Self {
        Self(
            status: 413,
            code: "RequestBodyTooLarge",
            "The request body is too large and exceeds the maximum permissible limit."
        )
    }

    /// 415 JsonFormatNotSupported: JSON asked for or sent with a version older than JSON itself.
    package static var jsonFormatNotSupported: Self {
        Self(status: 415, code: "JsonFormatNotSupported", "JSON format is not supported.")
    }
}
