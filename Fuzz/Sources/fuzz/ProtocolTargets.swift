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
        // A batch read whole, or up to the operation it refuses (answered inside the 202), when any came before.
        if let request = try? TableBatchRequest.read(data, contentType: contentType),
            request.refusal == nil || !request.operations.isEmpty
        {
            // What was read is written again and reads the same.
            let written = request.write(
                endpoint: "http://127.0.0.1:10002/devstoreaccount1",
                boundary: "batch_a1e9d677-b28b-435e-a89e-87e6a768a431"
            )
            let contentType = "multipart/mixed; boundary=batch_a1e9d677-b28b-435e-a89e-87e6a768a431"
            guard let again = try? TableBatchRequest.read(written, contentType: contentType),
                again.operations.count == request.operations.count
            else {
                fatalError("a batch of \(request.operations.count) operations, written again, does not read back")
            }
        }
        _ = try? TableBatchResponse.read(data, contentType: contentType)
    }

    static func connectionString(_ data: [UInt8]) {
        guard let text = String(validating: data, as: UTF8.self), let parsed = try? ConnectionString(text) else {
            return
        }
        _ = try? parsed.endpoint(.table)
        _ = try? parsed.endpoint(.blob)
        _ = try? parsed.credential()
        // The description shows the value of no setting but those known to hold no secret, whatever
        // the text. (Each of its settings is `Key=value`, and no value holds a `;`.) Asked of each
        // setting, not as "the key's value is nowhere in it": a key may equal a shown value.
        for setting in parsed.description.unicodeScalars.split(separator: ";") {
            guard let equals = setting.firstIndex(of: "=") else {
                fatalError("a setting without '=' in '\(parsed.description)'")
            }
            let name = String(Substring(setting[..<equals])).lowercased()
            let value = String(Substring(setting[setting.index(after: equals)...]))
            if shownSettings.contains(name) { continue }
            // A SAS token is shown up to its first `sig=`, the rest hidden.
            let hidden = value == "(hidden)" || (name == "sharedaccesssignature" && value.hasSuffix("sig=(hidden)"))
            if !hidden { fatalError("the description shows the value of \(name): '\(parsed.description)'") }
        }
    }

    /// Settings that never hold a secret: what a description may show.
    private static let shownSettings: Set<String> = [
        "defaultendpointsprotocol", "accountname", "endpointsuffix", "usedevelopmentstorage", "tableendpoint",
        "blobendpoint", "queueendpoint",
        "fileendpoint",
    ]

    static func sharedAccessSignature(_ data: [UInt8]) {
        guard let text = String(validating: data, as: UTF8.self), let query = try? QueryItems(query: text) else {
            return
        }
        _ = try? SharedAccessSignature(query: query)
        _ = try? SharedKeyAuthorization(parsing: text)
    }

    static func range(_ data: [UInt8]) {
        guard let text = String(validating: data, as: UTF8.self), let range = ByteRangeHeader.parse(text) else {
            return
        }
        guard range.first >= 0, range.last.map({ $0 >= range.first }) ?? true else {
            fatalError("'\(text)' read as \(range)")
        }
    }

    static func errorBody(_ data: [UInt8]) {
        _ = TableErrorBody.read(data, status: 400)
        // What the client's map (StorageHTTPClient, in a target the fuzzer does not link) reads a body with.
        _ = BlobErrorBody.read(data)
        _ = try? BlockListXML.read(data)
        _ = try? BlobListingXML.readBlobs(data, account: "a")
    }
}
