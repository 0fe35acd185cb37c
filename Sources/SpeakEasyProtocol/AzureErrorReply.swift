package import SpeakEasyStorage

/// A service's refusal, read by the client: its status, its Azure error code and its message, as a
/// ``StorageError`` (the same kinds `serve` answers from).
///
/// Table errors come as OData JSON or Atom XML (``TableErrorBody/read(_:status:)``, which also finds
/// a failed batch operation's index); Blob errors as `<Error><Code>…</Code><Message>…</Message>`,
/// with the code in `x-ms-error-code` too. A body that is neither still gives the status's kind and
/// the header's code. The message is the service's: it holds no key, and the client's SAS token is
/// in the URL, which is not quoted.
package enum AzureErrorReply {
    /// Nil for a status that is an answer (below 300, and 304, which callers ask for).
    package static func storageError(
        status: Int, errorCodeHeader: String?, body: [UInt8], service: StorageService, account: String
    ) -> StorageError? {
        guard status >= 300, status != 304 else { return nil }
        let reason = StorageError.Reason(httpStatus: status) ?? .unavailable
        if service == .table, let table = TableErrorBody.read(body, status: status) {
            var error = StorageError(reason, account: account, table.message.isEmpty ? "status \(status)" : table.message, code: table.code)
            error.operationIndex = table.operationIndex
            return error
        }
        let text = String(decoding: body, as: UTF8.self)
        let code = errorCodeHeader ?? XMLText.elementText("Code", in: text)
        var message = XMLText.elementText("Message", in: text).map { TableErrorBody.splitMessage($0).message } ?? ""
        if message.isEmpty { message = "status \(status)" + (code.map { " (\($0))" } ?? "") }
        return StorageError(reason, account: account, message, code: code)
    }
}
