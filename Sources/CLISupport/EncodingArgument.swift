package import ArgumentParser
package import SpeakEasyData

/// `--encoding`: the text encoding of the files read, for those that are not UTF-8 (Excel's
/// "Unicode Text" and its CSV on Windows).
extension TextEncoding: ExpressibleByArgument {
    /// The option's help, the same in every tool that reads files.
    package static let help = ArgumentHelp(
        "Text encoding of the files: \(names). (default: utf-8, or utf-16 by its byte order mark)",
        valueName: "name"
    )

    /// A name as `--encoding` takes it, in any case, also `utf8`, `utf16`, `cp1252` and `iso-8859-1`.
    package init?(argument: String) {
        let name = argument.lowercased()
        let aliases: [String: TextEncoding] = [
            "utf8": .utf8, "utf16": .utf16, "cp1252": .windows1252, "iso-8859-1": .latin1, "latin-1": .latin1,
        ]
        guard let encoding = TextEncoding(rawValue: name) ?? aliases[name] else { return nil }
        self = encoding
    }
}
