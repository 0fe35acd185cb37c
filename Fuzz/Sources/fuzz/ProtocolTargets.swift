import SpeakEasyModel
import SpeakEasyProtocol
import SpeakEasyStorage

/// The parsers that face the network: what `serve` reads from a request and the client from a reply.
enum ProtocolTargets {
    /// A `$batch` body, as a request and as a response; its boundary is its first line's (`--batch_…`).
    static func batch(_ data: [UInt8]) {
        let firstLine = data.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }.dropFirst(2)
        let boundary = String(decoding: firstLine.prefix(70), as: UTF8.self)
        let contentType = "multipart/mixed; boundary=\(boundary)"
        if let request = try? TableBatchRequest.read(data, contentType: contentType) {
            // What was read is written again and reads the same.
            let written = request.write(endpoint: "http://127.0.0.1:10002/devstoreaccount1", boundary: "batch_a1e9d677-b28b-435e-a89e-87e6a768a431")
            let contentType = "multipart/mixed; boundary=batch_a1e9d677-b28b-435e-a89e-87e6a768a431"
            guard let again = try? TableBatchRequest.read(written, contentType: contentType), again.operations.count == request.operations.count else {
                fatalError("a batch of \(request.operations.count) operations, written again, does not read back")
            }
        }
        _ = try? TableBatchResponse.read(data, contentType: contentType)
    }

    static func connectionString(_ data: [UInt8]) {
        guard let text = String(validating: data, as: UTF8.self), let parsed = try? ConnectionString(text) else { return }
        _ = try? parsed.endpoint(.table)
        _ = try? parsed.endpoint(.blob)
        _ = try? parsed.credential()
        // The description hides the key, whatever the text.
        if let key = parsed["AccountKey"], key.count >= 8, parsed.description.contains(key) {
            fatalError("the description shows the account key")
        }
    }

    static func sharedAccessSignature(_ data: [UInt8]) {
        guard let text = String(validating: data, as: UTF8.self), let query = try? QueryItems(query: text) else { return }
        _ = try? SharedAccessSignature(query: query)
        _ = try? SharedKeyAuthorization(parsing: text)
    }

    static func range(_ data: [UInt8]) {
        guard let text = String(validating: data, as: UTF8.self), let range = ByteRangeHeader.parse(text) else { return }
        guard range.first >= 0, range.last.map({ $0 >= range.first }) ?? true else { fatalError("'\(text)' read as \(range)") }
    }

    static func errorBody(_ data: [UInt8]) {
        _ = TableErrorBody.read(data, status: 400)
        _ = AzureErrorReply.storageError(status: 409, errorCodeHeader: nil, body: data, service: .blob, account: "a")
        _ = AzureErrorReply.storageError(status: 409, errorCodeHeader: nil, body: data, service: .table, account: "a")
        _ = try? BlockListXML.read(data)
        _ = try? BlobListingXML.readBlobs(data, account: "a")
    }
}
