import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A plain HTTP request to the server and its reply, through Foundation's client (not ours).
struct HTTPReply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The `<Code>` of an XML error body.
    var errorCode: String? {
        guard let start = text.range(of: "<Code>"), let end = text.range(of: "</Code>") else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }
}

func send(
    _ method: String,
    _ url: String,
    headers: [String: String] = [:],
    body: [UInt8]? = nil
) async throws -> HTTPReply {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let body { request.httpBody = Data(body) }
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = response as! HTTPURLResponse
    var fields: [String: String] = [:]
    for (name, value) in http.allHeaderFields { fields["\(name)"] = "\(value)" }
    return HTTPReply(status: http.statusCode, headers: fields, body: Array(data))
}
