import SpeakEasyCore
import SpeakEasyFormats
package import SpeakEasyModel

/// An entity group transaction's response: written by the server, read by the client.
///
/// The response is always 202 Accepted with a `multipart/mixed` body. On success its changeset
/// holds one `application/http` response per operation, in order; when an operation fails, the
/// whole changeset is rolled back and holds a single response: the failing operation's status and
/// an error body whose message starts `<index>:` (the recorded `table-json-batch-response*.txt`).
package struct TableBatchResponse: Sendable {
    /// One operation's response inside the changeset.
    package struct Part: Sendable, Equatable {
        package var status: Int
        package var headers: [Header]
        package var body: [UInt8]

        package typealias Header = WireReply.Header

        package init(status: Int, headers: [Header], body: [UInt8] = []) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        package func header(_ name: String) -> String? {
            headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
        }
    }

    package var parts: [Part]
    /// Whether the parts sit in a changeset (not for a lone GET).
    package var isChangeset: Bool

    package init(parts: [Part], isChangeset: Bool = true) {
        self.parts = parts
        self.isChangeset = isChangeset
    }

    /// The status of the outer response, whatever happened inside.
    package static let status = 202

    // MARK: - Building the parts (the server)

    /// The response to a successful `operation`, whose entity now has `etag` (nil for a delete);
    /// `entity` is the stored entity, written back when an insert asked for content.
    package static func success(
        _ operation: TableBatchOperation,
        etag: String?,
        entity: Entity? = nil,
        endpoint: TableEndpoint,
        format: TableWireFormat = .json(.minimal)
    ) -> Part {
        // Appended in Azure's order into room made once (a batch makes a hundred of these).
        var headers: [Part.Header] = []
        headers.reserveCapacity(8)
        if let id = operation.contentID { headers.append(Part.Header("Content-ID", id)) }
        headers.append(Part.Header("X-Content-Type-Options", "nosniff"))
        headers.append(Part.Header("Cache-Control", "no-cache"))
        let url = TableResourcePath.entity(
            table: operation.table,
            partitionKey: operation.partitionKey,
            rowKey: operation.rowKey
        ).url(endpoint: endpoint.url)
        switch operation.action {
        case .insert where !operation.returnNoContent:
            let body = entity.map { entityBody($0, table: operation.table, endpoint: endpoint, format: format) } ?? []
            headers.append(Part.Header("DataServiceVersion", "3.0;"))
            headers.append(Part.Header("Content-Type", format.contentType))
            headers.append(Part.Header("Location", url))
            if let etag { headers.append(Part.Header("ETag", etag)) }
            return Part(status: 201, headers: headers, body: body)
        case .insert:
            headers.append(Part.Header("Preference-Applied", "return-no-content"))
            headers.append(Part.Header("DataServiceVersion", "3.0;"))
            headers.append(Part.Header("Location", url))
            headers.append(Part.Header("DataServiceId", url))
        case .retrieve:
            let body = entity.map { entityBody($0, table: operation.table, endpoint: endpoint, format: format) } ?? []
            headers.append(Part.Header("DataServiceVersion", "3.0;"))
            headers.append(Part.Header("Content-Type", format.contentType))
            if let etag { headers.append(Part.Header("ETag", etag)) }
            return Part(status: 200, headers: headers, body: body)
        case .delete, .update, .merge, .insertOrReplace, .insertOrMerge:
            headers.append(Part.Header("DataServiceVersion", "1.0;"))
        }
        if let etag { headers.append(Part.Header("ETag", etag)) }
        return Part(status: 204, headers: headers)
    }

    /// An entity's body in `format`. An entity Atom cannot carry (a control character XML 1.0 has no
    /// form for) was written by a JSON client and is answered without a body rather than broken XML.
    private static func entityBody(
        _ entity: Entity,
        table: String,
        endpoint: TableEndpoint,
        format: TableWireFormat
    ) -> [UInt8] {
        switch format {
        case .json(let level): TableJSONWriter(endpoint: endpoint, metadata: level).entityResponse(entity, table: table)
        case .atom: (try? TableAtomWriter(endpoint: endpoint).entry(entity, table: table)) ?? []
        }
    }

    /// The single part of a failed changeset: `error` (with its ``TableServiceError/operationIndex``)
    /// as the failing operation's response; `contentID` is that operation's, when it had one.
    package static func failure(
        _ error: TableServiceError,
        contentID: String?,
        format: TableWireFormat,
        requestID: String,
        time: EdmDateTime
    ) -> Part {
        var headers: [Part.Header] = []
        if let contentID { headers.append(Part.Header("Content-ID", contentID)) }
        headers += [
            Part.Header("X-Content-Type-Options", "nosniff"), Part.Header("Cache-Control", "no-cache"),
            Part.Header("DataServiceVersion", "3.0;"),
            Part.Header("Content-Type", format.errorContentType),
        ]
        return Part(
            status: error.status,
            headers: headers,
            body: TableErrorBody.write(error, format: format, requestID: requestID, time: time)
        )
    }

    // MARK: - Writing (the server)

    /// The body; the outer `Content-Type` is ``contentType(boundary:)``. `boundary` is the outer
    /// one (`batchresponse_<uuid>`); the changeset's is `changesetresponse_<changesetID>`.
    package func write(boundary: String, changesetBoundary: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(parts.reduce(1024) { $0 + $1.body.count + 512 })
        out += "--\(boundary)\r\n".utf8
        if isChangeset {
            out += "Content-Type: multipart/mixed; boundary=\(changesetBoundary)\r\n\r\n".utf8
            let delimiter = Array("--\(changesetBoundary)\r\n".utf8)
            for part in parts {
                out += delimiter
                Self.append(part, to: &out)
            }
            out += "--\(changesetBoundary)--\r\n".utf8
        } else if let part = parts.first {
            Self.append(part, to: &out)
        }
        out += "--\(boundary)--\r\n".utf8
        return out
    }

    package static func contentType(boundary: String) -> String { "multipart/mixed; boundary=\(boundary)" }

    /// New boundaries for a response: `batchresponse_<uuid>` and `changesetresponse_<uuid>`.
    package static func newBoundaries() -> (batch: String, changeset: String) {
        func uuid() -> String { EdmGuid(high: .random(in: .min ... .max), low: .random(in: .min ... .max)).description }
        return ("batchresponse_" + uuid(), "changesetresponse_" + uuid())
    }

    private static func append(_ part: Part, to out: inout [UInt8]) {
        out += "Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nHTTP/1.1 ".utf8
        switch part.status {
        // The statuses of a successful changeset, without a string made for each.
        case 201: out += "201 Created\r\n".utf8
        case 204: out += "204 No Content\r\n".utf8
        default: out += "\(part.status) \(reasonPhrase(part.status))\r\n".utf8
        }
        for header in part.headers {
            out += header.name.utf8
            out += ": ".utf8
            out += header.value.utf8
            out += "\r\n".utf8
        }
        out += "\r\n".utf8
        out += part.body
        out += "\r\n".utf8
    }

    /// The reason phrases of the statuses a batch part can have.
    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 412: "Precondition Failed"
        case 413: "Request Entity Too Large"
        case 500: "Internal Server Error"
        case 503: "Server Unavailable"
        default: "Status \(status)"
        }
    }

    // MARK: - Reading (the client)

    /// Reads a batch response body sent with `contentType`. Throws the failing operation's error
    /// (with its index) when the changeset failed, and 400 InvalidInput-shaped errors (status 0
    /// would hide them) when the body cannot be read.
    package static func read(_ body: [UInt8], contentType: String?) throws(TableServiceError) -> TableBatchResponse {
        guard let boundary = contentType.flatMap(MultipartMixed.boundary(ofContentType:)) else {
            throw unreadable("the Content-Type names no multipart boundary")
        }
        let outer: [MultipartMixed.Part]
        do throws(MultipartMixed.Failure) {
            outer = try MultipartMixed.parts(body[...], boundary: boundary)
        } catch {
            throw unreadable("\(error)")
        }
        guard outer.count == 1, let batchPart = outer.first else {
            throw unreadable("it holds \(outer.count) parts, not one")
        }
        var response = TableBatchResponse(parts: [], isChangeset: false)
        var httpParts = [batchPart]
        if let changeset = batchPart.header("Content-Type").flatMap(MultipartMixed.boundary(ofContentType:)) {
            do throws(MultipartMixed.Failure) {
                httpParts = try MultipartMixed.parts(batchPart.body, boundary: changeset)
            } catch {
                throw unreadable("\(error)")
            }
            response.isChangeset = true
        }
        for part in httpParts {
            let message: MultipartMixed.HTTPMessage
            do throws(MultipartMixed.Failure) {
                message = try MultipartMixed.httpMessage(part.body)
            } catch {
                throw unreadable("a part is not an HTTP response")
            }
            let words = message.startLine.split(separator: " ", maxSplits: 2)
            guard words.count >= 2, words[0].hasPrefix("HTTP/"), let status = Int(words[1]) else {
                throw unreadable("a part is not an HTTP response")
            }
            let parsed = Part(
                status: status,
                headers: message.headers.map { Part.Header($0.name, $0.value) },
                body: Array(message.body)
            )
            if status >= 300 {
                var error =
                    TableErrorBody.read(parsed.body, status: status) ?? TableServiceError(status: status, code: "", "")
                if error.operationIndex == nil, let id = parsed.header("Content-ID").flatMap({ Int($0) }) {
                    error.operationIndex = id - 1
                }
                throw error
            }
            response.parts.append(parsed)
        }
        return response
    }

    private static func unreadable(_ why: String) -> TableServiceError {
        TableServiceError(status: 502, code: "InvalidBatchResponse", "The batch response cannot be read: \(why).")
    }
}
