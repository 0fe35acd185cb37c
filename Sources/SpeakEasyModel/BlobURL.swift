import SpeakEasyCore

/// Blob URLs, in the two forms Azure uses, and back to (account, container, blob).
///
/// - Azure: `https://<account>.blob.core.windows.net/<container>/<blob>`
/// - path style, as Azurite and the local SQLite account use:
///   `http://127.0.0.1:10000/<account>/<container>/<blob>`
/// Blob names are percent-encoded except for unreserved characters and `/`.
package struct BlobURL: Hashable, Sendable {
    package var account: String
    package var container: String
    package var blob: String

    package init(account: String, container: String, blob: String) {
        self.account = account
        self.container = container
        self.blob = blob
    }

    /// Parses either URL form; nil when the URL is neither.
    package init?(_ url: String) {
        let schemeEnd: String.Index
        if url.hasPrefix("https://") {
            schemeEnd = url.index(url.startIndex, offsetBy: 8)
        } else if url.hasPrefix("http://") {
            schemeEnd = url.index(url.startIndex, offsetBy: 7)
        } else {
            return nil
        }
        let rest = url[schemeEnd...]
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let host = rest[..<slash]
        var segments = rest[rest.index(after: slash)...].split(
            separator: "/",
            maxSplits: 1,
            omittingEmptySubsequences: false
        ).map(String.init)
        let account: String
        if let dot = host.firstIndex(of: "."), host[dot...].hasPrefix(".blob.") {
            account = String(host[..<dot])
        } else {
            // Path style: the first segment is the account.
            guard segments.count == 2 else { return nil }
            account = segments[0]
            segments = segments[1].split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(
                String.init
            )
        }
        guard segments.count == 2, !segments[0].isEmpty, !segments[1].isEmpty, let blob = Self.unescape(segments[1])
        else { return nil }
        self.init(account: account, container: segments[0], blob: blob)
    }

    /// Percent-encodes a blob name for a URL path.
    package static func escape(_ name: String) -> String { PercentEncoding.encodePath(name) }

    static func unescape(_ text: String) -> String? { PercentEncoding.decode(text) }
}
