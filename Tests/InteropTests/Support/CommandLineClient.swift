import Foundation
import TestSupport
import Testing

/// A command-line client that judges `serve` as its users run it: rclone (Debian's package) and the
/// Azure CLI (`Tests/InteropTests/setup.sh` installs it in `.venv-azcli`).
///
/// A client is found at the path its variable names, else (rclone only) on `PATH`. Without it the
/// tests are skipped on a developer's machine and fail, saying how to get it, when `CI` is set, as
/// the Python SDK tests do (``PythonSDK``).
struct CommandLineClient: Sendable {
    let name: String
    /// The variable that names its executable.
    let variable: String
    /// Whether to look on `PATH` too (not for the CLI, whose pinned version lives in a virtualenv).
    let searchesPath: Bool
    let howToGet: String

    static let rclone = CommandLineClient(
        name: "rclone",
        variable: "SPEAKEASY_INTEROP_RCLONE",
        searchesPath: true,
        howToGet: "apt-get install rclone (.ci/run does)"
    )
    static let azureCLI = CommandLineClient(
        name: "az",
        variable: "SPEAKEASY_INTEROP_AZ",
        searchesPath: false,
        howToGet:
            "run Tests/InteropTests/setup.sh and export SPEAKEASY_INTEROP_AZ=$PWD/.venv-azcli/bin/az (.ci/run does both)"
    )

    var executable: String? {
        if let path = PythonSDK.environment[variable], !path.isEmpty { return path }
        guard searchesPath else { return nil }
        for directory in (PythonSDK.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Run its tests: when it is there, and always on CI (where its absence is a failure).
    var enabled: Bool { executable != nil || PythonSDK.inCI }
    var howToEnable: Comment { "needs \(name): \(howToGet)" }

    /// Runs the client; returns its stdout, or throws with its stderr when it fails.
    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> String {
        guard let executable else {
            throw PythonSDK.Failure(description: "\(name) is missing but CI is set: \(howToGet)")
        }
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw PythonSDK.Failure(description: "\(variable)=\(executable) is not an executable: \(howToGet)")
        }
        let environment = PythonSDK.environment.merging(extra) { $1 }
        let result = try ChildProcess.run(executable, arguments, environment: environment)
        let stdout = String(decoding: result.stdout, as: UTF8.self)
        guard !result.killedBySignal, result.status == 0 else {
            let stderr = String(decoding: result.stderr, as: UTF8.self)
            throw PythonSDK.Failure(
                description:
                    "\(name) \(arguments.joined(separator: " ")) \(result.killedBySignal ? "died of signal" : "exited with") \(result.status):\n\(stderr)\n\(stdout)"
            )
        }
        return stdout
    }
}
