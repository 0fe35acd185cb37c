/// A file path as SARIF's `artifactLocation.uri`: a URI reference (RFC 3986), which a path is not.
///
/// Paths may hold spaces, `%`, `#`, `?` or non-ASCII letters, and a relative path whose first
/// segment has a colon (`a:b.csv`) would read as a URI scheme. So every byte of the UTF-8 path is
/// percent-encoded except the unreserved characters and `/`. A relative path stays relative (GitHub
/// code scanning resolves it against the repository root); an absolute one becomes a `file://` URI,
/// because a URI reference starting with `/` would be resolved against a base nobody set.
enum SARIFArtifactURI {
    static func reference(forPath path: String) -> String {
        let encoded = percentEncoded(path)
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }

    static func percentEncoded(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
