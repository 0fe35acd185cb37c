import ArgumentParser
import SpeakEasyData

/// `--report`: the one place that maps a report format to its writer.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, junit, github, sarif, html

    func writer(colour: Bool, toolVersion: String) -> any ReportWriter {
        switch self {
        case .text: TextReportWriter(colour: colour)
        case .json: JSONReportWriter(toolVersion: toolVersion)
        case .junit: JUnitReportWriter()
        case .github: GitHubReportWriter()
        case .sarif: SARIFReportWriter(toolVersion: toolVersion)
        case .html: HTMLReportWriter(toolVersion: toolVersion)
        }
    }
}
