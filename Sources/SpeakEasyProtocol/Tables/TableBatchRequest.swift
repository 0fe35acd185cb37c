import SpeakEasyCore
import SpeakEasyFormats
import SpeakEasyModel

/// An entity group transaction's request (`POST /$batch`): read by the server into operations with
/// Azure's checks, written by the client.
///
/// The body is `multipart/mixed` with one part: a changeset (itself `multipart/mixed`) whose parts
/// are `application/http` requests, or a single `GET` of one entity. Azure's rules: at most 100
/// operations, one table and one PartitionKey, each entity once, at most 4 MiB. An operation that
/// breaks a rule, or cannot be read, is the batch's ``refusal``: Azure answers it inside a 202, as the
/// changeset's one response, with the operation's index (the message starts `<index>:`,
/// ``TableServiceError/operationIndex``), and azure-data-tables raises `TableTransactionError` with
/// that index. Only a body that cannot be read as a batch at all is thrown: a top-level 400.
package struct TableBatchRequest: Sendable, Equatable {
    package static let maximumOperations = 100
    package static let maximumBodyBytes = 4 << 20

    package var operations: [TableBatchOperation]
    /// Whether the operations form a changeset (a lone GET stands outside one).
    package var isChangeset: Bool
    /// The first operation refused while reading, with its index; ``operations`` holds those before it.
    package var refusal: TableServiceError?

    package init(operations: [TableBatchOperation], isChangeset: Bool = true) {
        self.operations = operations
        self.isChangeset = isChangeset
    }

    /// Reads a `$batch` body sent with `contentType` (`multipart/mixed; boundary=batch_…`).
    package static func read(_ body: [UInt8], contentType: String?) throws(TableServiceError) -> TableBatchRequest {
        guard body.count <= maximumBodyBytes else { throw .requestBodyTooLarge }
        guard let boundary = contentType.flatMap(MultipartMixed.boundary(ofContentType:)) else {
            throw .invalidInput("The batch request's Content-Type must be multipart/mixed with a boundary.")
        }
        let outer = try parts(body[...], boundary: boundary)
        guard outer.count == 1, let batchPart = outer.first else {
            throw .invalidInput("The batch request must hold exactly one changeset or one query.")
        }
        if let changeset = batchPart.header("Content-Type").flatMap(MultipartMixed.boundary(ofContentType:)) {
            let requests = try parts(batchPart.body, boundary: changeset)
            var rowKeys: Set<String> = []
            var reader = JSONPropertiesReader()
            guard !requests.isEmpty else { throw .invalidInput("The changeset holds no operation.") }
            var batch = TableBatchRequest(operations: [])
            for (index, part) in requests.enumerated() {
                let (message, words) = try self.message(part)
                do throws(TableServiceError) {
                    guard index < maximumOperations else {
                        throw .invalidInput(
                            "The batch request operation exceeds the maximum 100 changes per change set."
                        )
                    }
                    let operation = try self.operation(part, message, words: words, reader: &reader)
                    guard operation.action != .retrieve else {
                        throw .invalidInput("A query cannot be part of a changeset.")
                    }
                    try check(operation, against: batch.operations.first, rowKeys: &rowKeys)
                    batch.operations.append(operation)
                } catch {
                    batch.refusal = error.at(operation: index)
                    break
                }
            }
            return batch
        }
        do throws(TableServiceError) {
            var reader = JSONPropertiesReader()
            let (message, words) = try self.message(batchPart)
            let operation = try self.operation(batchPart, message, words: words, reader: &reader)
            guard operation.action == .retrieve else { throw .invalidInput("A change must be inside a changeset.") }
            return TableBatchRequest(operations: [operation], isChangeset: false)
        } catch {
            throw error.at(operation: 0)
        }
    }

    private static func parts(
        _ body: ArraySlice<UInt8>,
        boundary: String
    ) throws(TableServiceError) -> [MultipartMixed.Part] {
        do throws(MultipartMixed.Failure) {
            return try MultipartMixed.parts(body, boundary: boundary)
        } catch {
            switch error {
            case .noBoundary: throw .invalidInput("The batch request body does not contain the boundary '\(boundary)'.")
            case .cutShort:
                throw .invalidInput("The batch request body ends before its closing boundary '--\(boundary)--'.")
            case .malformedPart(let why): throw .invalidInput("A part of the batch request is malformed: \(why).")
            }
        }
    }

    /// One changeset part's request: a part that is not an `application/http` request is a body
    /// that cannot be read as a batch.
    private static func message(
        _ part: MultipartMixed.Part
    ) throws(TableServiceError) -> (MultipartMixed.HTTPMessage, [ArraySlice<UInt8>]) {
        guard let type = part.header("Content-Type"), type.utf8.count >= 16,
            String(type.utf8.prefix(16))?.equalsIgnoringASCIICase("application/http") == true
        else {
            throw .invalidInput("A part of the batch request is not an application/http request.")
        }
        let message: MultipartMixed.HTTPMessage
        do throws(MultipartMixed.Failure) {
            message = try MultipartMixed.httpMessage(part.body)
        } catch {
            throw .invalidInput("A part of the batch request is not an HTTP request.")
        }
        // Split as bytes (an array's split is specialised; a string view's is not).
        let words = Array(message.startLine.utf8).split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        guard words.count == 3, words[2].starts(with: "HTTP/".utf8) else {
            throw .invalidInput("A part of the batch request is not an HTTP request.")
        }
        return (message, words)
    }

    /// The operation a part's request makes: what it cannot be is the operation's refusal.
    private static func operation(
        _ part: MultipartMixed.Part,
        _ message: MultipartMixed.HTTPMessage,
        words: [ArraySlice<UInt8>],
        reader: inout JSONPropertiesReader
    ) throws(TableServiceError) -> TableBatchOperation {
        let method = String(decoding: words[0], as: UTF8.self).uppercased()
        func header(_ name: String) -> String? {
            message.headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
        }
        let resource = try TableResourcePath(parsing: path(ofURL: String(decoding: words[1], as: UTF8.self)))
        let ifMatch = header("If-Match")
        let contentID = header("Content-ID") ?? part.header("Content-ID")
        let noContent = header("Prefer")?.containsIgnoringASCIICase("return-no-content") ?? false
        switch (method, resource) {
        case ("POST", .entities(let table)):
            let entity = try TableEntityBody.read(message.body, contentType: header("Content-Type"), reader: &reader)
            return TableBatchOperation(
                .insert,
                table: table,
                partitionKey: entity.partitionKey,
                rowKey: entity.rowKey,
                entity: entity,
                returnNoContent: noContent,
                contentID: contentID
            )
        case ("PUT", .entity(let table, let partitionKey, let rowKey)),
            ("MERGE", .entity(let table, let partitionKey, let rowKey)),
            ("PATCH", .entity(let table, let partitionKey, let rowKey)):
            let entity = try TableEntityBody.read(
                message.body,
                contentType: header("Content-Type"),
                keys: (partitionKey, rowKey),
                reader: &reader
            )
            let action: TableBatchOperation.Action =
                method == "PUT"
                ? ifMatch.map { .update(ifMatch: $0) } ?? .insertOrReplace
                : ifMatch.map { .merge(ifMatch: $0) } ?? .insertOrMerge
            return TableBatchOperation(
                action,
                table: table,
                partitionKey: partitionKey,
                rowKey: rowKey,
                entity: entity,
                contentID: contentID
            )
        case ("DELETE", .entity(let table, let partitionKey, let rowKey)):
            return TableBatchOperation(
                .delete(ifMatch: ifMatch ?? "*"),
                table: table,
                partitionKey: partitionKey,
                rowKey: rowKey,
                contentID: contentID
            )
        case ("GET", .entity(let table, let partitionKey, let rowKey)):
            return TableBatchOperation(
                .retrieve,
                table: table,
                partitionKey: partitionKey,
                rowKey: rowKey,
                contentID: contentID
            )
        default:
            throw .invalidInput("\(method) on \(resource.segment) cannot be part of a batch.")
        }
    }

    /// The path of an absolute URL (or of a path given alone), without its query.
    static func path(ofURL url: String) -> Substring {
        // Found by bytes: `://`, `/` and `?` are ASCII, so every cut falls between characters.
        let bytes = url.utf8
        var start = bytes.startIndex
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) {
            let host = bytes.index(colon, offsetBy: 3)
            start = bytes[host...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        }
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        return url[start..<end]
    }

    /// Azure's rules between operations: one table, one partition, each row once.
    private static func check(
        _ operation: TableBatchOperation,
        against first: TableBatchOperation?,
        rowKeys: inout Set<String>
    ) throws(TableServiceError) {
        if let first, operation.table != first.table || operation.partitionKey != first.partitionKey {
            throw TableServiceError(
                status: 400,
                code: "CommandsInBatchActOnDifferentPartitions",
                "All commands in a batch must operate on same entity group."
            )
        }
        if !rowKeys.insert(operation.rowKey).inserted {
            throw TableServiceError(
                status: 400,
                code: "InvalidDuplicateRow",
                "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request."
            )
        }
    }

    // MARK: - Writing (the client)

    /// The body a client sends, under `endpoint` (the service's base URL); `boundary` is the batch's
    /// (`batch_<uuid>`), the changeset's is derived from it.
    package func write(endpoint: String, boundary: String) -> [UInt8] {
        let changeset = "changeset_" + boundary.drop { $0 != "_" }.dropFirst()
        var out: [UInt8] = []
        out += "--\(boundary)\r\n".utf8
        if isChangeset {
            out += "Content-Type: multipart/mixed; boundary=\(changeset)\r\n\r\n".utf8
            for (index, operation) in operations.enumerated() {
                out += "--\(changeset)\r\n".utf8
                Self.append(
                    operation,
                    contentID: operation.contentID ?? String(index + 1),
                    endpoint: endpoint,
                    to: &out
                )
            }
            out += "--\(changeset)--\r\n".utf8
        } else if let operation = operations.first {
            Self.append(operation, contentID: operation.contentID, endpoint: endpoint, to: &out)
        }
        out += "--\(boundary)--\r\n".utf8
        return out
    }

    /// The outer `Content-Type` for `boundary`.
    package static func contentType(boundary: String) -> String { "multipart/mixed; boundary=\(boundary)" }

    /// A new batch boundary, `batch_<uuid>`.
    package static func newBoundary() -> String {
        "batch_" + EdmGuid(high: .random(in: .min ... .max), low: .random(in: .min ... .max)).description
    }

    private static func append(
        _ operation: TableBatchOperation,
        contentID: String?,
        endpoint: String,
        to out: inout [UInt8]
    ) {
        out += "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n".utf8
        out += "\(operation.method) \(operation.resource.url(endpoint: endpoint)) HTTP/1.1\r\n".utf8
        if let contentID { out += "Content-ID: \(contentID)\r\n".utf8 }
        out += "Accept: application/json;odata=minimalmetadata\r\nDataServiceVersion: 3.0\r\n".utf8
        if let ifMatch = operation.ifMatch { out += "If-Match: \(ifMatch)\r\n".utf8 }
        if operation.returnNoContent { out += "Prefer: return-no-content\r\n".utf8 }
        if let body = operation.body ?? operation.entity.map(TableEntityBody.writeJSON) {
            out += "Content-Type: \(TableEntityBody.jsonContentType)\r\nContent-Length: \(body.count)\r\n\r\n".utf8
            out += body
            out += "\r\n".utf8
        } else {
            out += "\r\n".utf8
        }
    }
}
