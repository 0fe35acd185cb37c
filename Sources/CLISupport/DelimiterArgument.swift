package import ArgumentParser
package import SpeakEasyData

/// `--delimiter`: the CSV field separator, one ASCII character other than a quote or a line end;
/// `tab` (or `\t`) for a tab.
package struct DelimiterArgument: Sendable {
    package let byte: UInt8

    package static let help = ArgumentHelp(
        "CSV field separator, one character; 'tab' for a tab. (default: tab for .tsv and UTF-16 files, else ,)",
        valueName: "char"
    )

    /// Parses an option's value; the error says what is wrong with it (for `@Option(transform:)`).
    package init(parsing text: String) throws {
        if text == "tab" || text == "\\t" || text == "\t" {
            byte = 0x09
            return
        }
        guard text.utf8.count == 1, let byte = text.utf8.first, byte < 0x80, byte != UInt8(ascii: "\""), byte != 0x0A,
            byte != 0x0D
        else {
            throw ValidationError(
                "--delimiter must be one ASCII character other than a quote or a line end (or 'tab'), not '\(text)'"
            )
        }
        self.byte = byte
    }

    /// Whether any of `files` may be CSV, so that `--delimiter` applies to reading it: a CSV
    /// `--from-format`, or a file whose extension says CSV or says nothing (its first bytes decide).
    package static func mayReadCSV(_ files: [String], fromFormat: DataFormat?) -> Bool {
        if let fromFormat { return !files.isEmpty && fromFormat == .csv }
        return files.contains { (DataFormat(fileExtensionOf: $0) ?? .csv) == .csv }
    }
}
