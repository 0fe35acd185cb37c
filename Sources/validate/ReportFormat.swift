import ArgumentParser
import SpeakEasyData

/// `--report`: the one place that maps a report format to its writer.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, junit, github, sarif

    /// The writer for this format, or nil when this build has none.
    ///
    /// junit, github and sarif are written by `JUnitReportWriter()`, `GitHubReportWriter()` and
    /// `SARIFReportWriter(toolVersion:)`, which land with their own branch: wire them in here.
    func writer(colour: Bool, toolVersion: String) -> (any ReportWriter)? {
        switch self {
        case .text: TextReportWriter(colour: colour)
        case .json: JSONReportWriter(toolVersion: toolVersion)
        case .junit, .github, .sarif: nil
        }
    }
}
