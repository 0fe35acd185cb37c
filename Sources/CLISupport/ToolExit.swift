package import ArgumentParser
import SpeakEasyData

/// Turns library errors into a one-line message and the exit status of their kind (``ExitStatus``).
package enum ToolExit {
    /// Prints `tool: error: …` to stderr and returns the exit code to leave with.
    package static func report(_ error: any Error, tool: String) -> ExitCode {
        // `export … | head`: the reader has what it wanted; exit 74 (the output is not complete)
        // without a message that would only clutter the terminal.
        if let file = error as? FileError, file.isClosedPipe { return ExitCode(ExitStatus.code(for: file)) }
        Terminal.writeError("\(tool): error: \(error)\n")
        return ExitCode(ExitStatus.code(for: error))
    }
}
