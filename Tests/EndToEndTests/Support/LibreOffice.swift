import Foundation
import Testing

/// LibreOffice Calc, headless (Debian's `libreoffice-calc-nogui`): opens our CSV as a person's
/// spreadsheet would, independently of the library under test.
enum LibreOffice {
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = String(directory) + "/soffice"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// In CI a missing LibreOffice is a failure (`.ci/run` installs it); elsewhere its tests skip.
    static let inCI = !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty

    /// Whether the tests that need it run: always in CI, where they then fail without it.
    static var shouldRun: Bool { executable != nil || inCI }

    /// Converts the CSV file `name` in `directory` to Flat ODS (one XML file, readable without
    /// unzipping), importing it as Calc's text import dialog does for a UTF-8 CSV with commas and
    /// double quotes; returns the path of the `.fods` file. The profile lives in `directory`, so
    /// that parallel runs do not share one.
    static func convertToFlatODS(_ name: String, in directory: String) async throws -> String {
        guard let executable else {
            struct Missing: Error, CustomStringConvertible {
                var description: String { "soffice is not on PATH (apt-get install libreoffice-calc-nogui)" }
            }
            Issue.record(Missing())
            throw Missing()
        }
        let result = try await Subprocess.run(
            executable,
            [
                "-env:UserInstallation=file://\(directory)/libreoffice-profile", "--headless",
                "--infilter=CSV:44,34,76,1",
                "--convert-to", "fods", "--outdir", directory, name,
            ],
            directory: directory
        )
        let output = directory + "/" + (name.split(separator: ".").dropLast().joined(separator: ".")) + ".fods"
        guard result.status == 0, FileManager.default.fileExists(atPath: output) else {
            struct Failed: Error, CustomStringConvertible { var description: String }
            throw Failed(description: "LibreOffice did not convert \(name): \(result)")
        }
        return output
    }
}
