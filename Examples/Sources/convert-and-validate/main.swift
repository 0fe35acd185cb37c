// Converts a data file into another format, then validates the result against the SpeakEasy app's
// data contract: `convert-and-validate events.atom events.csv`. The output's format follows its
// extension. Exits 1 when validation finds an error, 2 on bad arguments, 65 on unreadable input.
import Foundation  // exit()
import SpeakEasyData

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let input = arguments.first, let output = arguments.last else {
    print("usage: convert-and-validate INPUT OUTPUT   (formats: .atom .json .ndjson .csv)")
    exit(2)
}
guard let format = DataFormat(fileExtensionOf: output) else {
    print("convert-and-validate: \(output): name the format with its extension (.atom, .json, .ndjson, .csv)")
    exit(2)
}

do {
    let count = try await EntityFile.convert([input], to: output, as: OutputFormat(format))
    print("wrote \(count) entities to \(output)")

    let report = try await EntityFile.validate([output])
    for finding in report.findings {
        print("\(finding.location): \(finding.severity): \(finding.message) [\(finding.rule)]")
    }
    print("\(report.entitiesChecked) entities checked: \(report.errorCount) errors, \(report.warningCount) warnings")
    exit(report.errorCount > 0 ? 1 : 0)
} catch {
    print("convert-and-validate: \(error)")
    exit(65)
}
