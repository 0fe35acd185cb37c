/// The exit statuses every tool's `--help` lists: one meaning per code across the tools (sysexits),
/// written once so the tools cannot drift apart. ``ToolMain`` prints them last, after the options,
/// as the README says.
package enum ExitStatusHelp {
    /// The `Exit status:` paragraph; `findings` is what exit 1 means for the tool, if it uses it;
    /// `output` what exit 73 means for it: which output cannot be created. `interrupted` is whether a
    /// signal ends the tool with 128 + its number (`serve` stops cleanly, with 0, instead).
    package static func text(findings: String? = nil, output: String, interrupted: Bool = true) -> String {
        var lines = ["Exit status:", "  0   success"]
        if let findings { lines.append("  1   \(findings)") }
        // Each line fits 80 columns, so the help's wrapping leaves the table whole.
        lines += [
            "  64  usage: a bad option, or options that conflict or do not apply",
            "  65  malformed input (file:line:column), or --store is not a storage account",
            "  66  an input file, or the store to read, is missing, unreadable or empty",
            "  69  the store is locked, unreachable, or refuses the key or SAS token",
            "  73  \(output)",
            "  74  an I/O error part-way (a full disk, a closed pipe)",
        ]
        if interrupted {
            lines += [
                "  130 interrupted by Ctrl-C (SIGINT)",
                "  143 stopped by SIGTERM",
            ]
        }
        return lines.joined(separator: "\n")
    }
}
