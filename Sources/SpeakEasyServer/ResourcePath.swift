import SpeakEasyCore
import SpeakEasyProtocol
import SpeakEasyStorage

/// A request path in Azurite's path style, `/<account>/<resource…>`, decoded: the account, then the
/// first segment (a container or a table resource) and the rest (a blob's name, which may hold `/`).
struct ResourcePath: Sendable {
    var account: String
    /// Nil for the account itself (`/devstoreaccount1` or `/devstoreaccount1/`).
    var first: String?
    /// Nil when the path has no further segment.
    var rest: String?

    init(_ rawPath: String) throws(StorageError) {
        let bytes = Array(rawPath.utf8)
        guard bytes.first == UInt8(ascii: "/") else { throw Self.invalid(rawPath, "it does not start with /") }
        // Up to three segments (the last keeps its slashes), cut at the bytes of `/`.
        var segments: [ArraySlice<UInt8>] = []
        var start = 1
        while segments.count < 2, let slash = bytes[start...].firstIndex(of: UInt8(ascii: "/")) {
            segments.append(bytes[start..<slash])
            start = slash + 1
        }
        segments.append(bytes[start...])
        func decoded(_ segment: ArraySlice<UInt8>) throws(StorageError) -> String {
            guard let text = segment.withUnsafeBufferPointer(PercentEncoding.decode(utf8:)) else {
                throw Self.invalid(rawPath, "a percent escape is malformed or not UTF-8")
            }
            return text
        }
        account = try decoded(segments[0])
        first = segments.count > 1 && !segments[1].isEmpty ? try decoded(segments[1]) : nil
        rest = segments.count > 2 && !segments[2].isEmpty ? try decoded(segments[2]) : nil
        // A dot segment would name another resource once normalised; Azure refuses such URIs.
        let named = [first, rest].compactMap { $0 }
        if named.contains(where: { $0.utf8.contains(UInt8(ascii: ".")) }),
            named.flatMap({ $0.split(separator: "/", omittingEmptySubsequences: false) }).contains(where: { $0 == "." || $0 == ".." })
        {
            throw Self.invalid(rawPath, "it holds a . or .. segment")
        }
    }

    static func invalid(_ path: String, _ why: String) -> StorageError {
        StorageError(.invalidInput, account: "", "The requested URI does not represent any resource on the server (\(why)).", code: "InvalidUri")
    }
}
