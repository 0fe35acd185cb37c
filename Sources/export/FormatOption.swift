import ArgumentParser
import SpeakEasyData

/// An option that only some output formats understand. Giving one where it does not apply is a usage
/// error (64), not an option silently ignored. The table below is the one place to list them: a new
/// format option is one more row.
struct FormatOption: Sendable {
    let name: String
    /// The output formats it applies to.
    let formats: Set<DataFormat>
    let isGiven: @Sendable (Export) -> Bool
    /// Whether it also applies to the input being read (as --delimiter does to CSV input), if it can.
    var appliesToInput: (@Sendable (Export) -> Bool)? = nil

    static let all: [FormatOption] = [
        FormatOption(name: "--typed", formats: [.csv]) { $0.typed },
        FormatOption(name: "--spreadsheet", formats: [.csv]) { $0.spreadsheet },
        FormatOption(name: "--bom", formats: [.csv]) { $0.bom },
        FormatOption(name: "--metadata", formats: [.json, .ndjson]) { $0.metadata != nil },
        FormatOption(
            name: "--delimiter",
            formats: [.csv],
            isGiven: { $0.delimiter != nil },
            appliesToInput: { $0.readsCSV }
        ),
    ]

    static func check(_ export: Export) throws {
        let format = export.outputFormat
        for option in all
        where option.isGiven(export) && !option.formats.contains(format) && option.appliesToInput?(export) != true {
            let formats = option.formats.map(\.rawValue).sorted().joined(separator: " and ")
            let input = option.appliesToInput == nil ? "" : " or input"
            throw ValidationError(
                "\(option.name) applies to \(formats) output\(input); it does not apply to \(format.rawValue) output"
            )
        }
    }
}
