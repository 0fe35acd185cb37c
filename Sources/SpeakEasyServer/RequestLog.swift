import Foundation

/// One line per request on standard error: method, path and query (a SAS signature masked), status
/// and time taken. Account keys never reach a request line; signatures are the only secret in one.
enum RequestLog {
    static func line(method: String, path: String, query: String, status: Int, milliseconds: Double) -> String {
        let shown = query.isEmpty ? path : path + "?" + redacted(query)
        return "\(method) \(shown) \(status) \((milliseconds * 10).rounded() / 10) ms"
    }

    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The query with the value of every `sig` parameter replaced.
    static func redacted(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map { parameter in
            parameter.lowercased().hasPrefix("sig=") ? "sig=REDACTED" : String(parameter)
        }.joined(separator: "&")
    }
}
