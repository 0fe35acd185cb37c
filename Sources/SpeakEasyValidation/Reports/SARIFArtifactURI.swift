import SpeakEasyCore

/// A file path as SARIF's `artifactLocation.uri`: a URI reference (RFC 3986), which a path is not.
///
/// Paths may hold spaces, `%`, `#`, `?` or non-ASCII letters, and a relative path whose first
/// segment has a colon (`a:b.csv`) would read as a URI scheme. So every byte of the UTF-8 path is
/// percent-encoded except the unreserved characters and `/`. A relative path stays relative (GitHub
/// code scanning resolves it against the repository root); an absolute one becomes a `file://` URI,
/// because a URI reference starting with `/` would be resolved against a base nobody set.
enum SARIFArtifactURI {
    static func reference(forPath path: String) -> String {
        let encoded = PercentEncoding.encodePath(path)
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
