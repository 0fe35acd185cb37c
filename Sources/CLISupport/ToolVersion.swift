/// The toolkit's version, one for all three tools: what `--version` prints and what validate's
/// reports name as the tool's version.
package enum ToolVersion {
    package static let current = "0.1.0"
}
