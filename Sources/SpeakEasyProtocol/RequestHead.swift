import SpeakEasyCore

/// What the protocol code needs of an HTTP request, whichever HTTP library carries it: the server
/// builds one from NIO's request head, the client from the request it is about to send.
package struct RequestHead: Sendable {
    /// `GET`, `PUT`, `MERGE`…, as sent.
    package var method: String
    /// The path exactly as sent, percent-encoding included: `/devstoreaccount1/photos/ada.jpg`.
    package var path: String
    /// The query string as sent, without the `?` (empty when there is none).
    package var query: String { didSet { queryItems = Self.decode(query) } }
    /// The query's parameters, decoded once (when the query is set) for everything that reads them;
    /// a failure when an escape is malformed or not UTF-8.
    package private(set) var queryItems: Result<QueryItems, QueryItems.DecodingError>
    /// Header fields in the order sent; names compare case-insensitively.
    package var headers: [(name: String, value: String)]

    package init(method: String, path: String, query: String = "", headers: [(name: String, value: String)] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        queryItems = Self.decode(query)
    }

    private static func decode(_ query: String) -> Result<QueryItems, QueryItems.DecodingError> {
        Result { () throws(QueryItems.DecodingError) in try QueryItems(query: query) }
    }

    /// The first value of a header, by case-insensitive name.
    package func header(_ name: String) -> String? {
        headers.first { $0.name.equalsIgnoringASCIICase(name) }?.value
    }

    /// Every value of a header, by case-insensitive name.
    package func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }
}
