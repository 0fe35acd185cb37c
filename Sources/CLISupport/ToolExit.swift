package import ArgumentParser
import SpeakEasyData

/// Turns library errors into a one-line message and the exit status of their kind (``ExitStatus``).
package enum ToolExit {
    /// Prints `tool: error: …` to stderr and returns the exit code to leave with; a usage error
    /// (64) is returned for ``ToolMain`` to report, so that it carries the `Usage:` line and the
    /// pointer to `--help` as every usage error does, whether the parser or the run found it.
    package static func report(_ error: any Error, tool: String) -> any Error {
        // `export … | head`: the reader has what it wanted; exit 74 (the output is not complete)
        // without a message that would only clutter the terminal.
        if let file = error as? FileError, file.isClosedPipe { return ExitCode(ExitStatus.code(for: file)) }
        if ExitStatus.kind(of: error) == .usage { return ValidationError(message(error)) }
        Terminal.writeError("\(tool): error: \(message(error))\n")
        return ExitCode(ExitStatus.code(for: error))
    }

    /// The error in the tools' words: the library's message with the options that would help, which
    /// the library's own messages do not name.
    package static func message(_ error: any Error) -> String {
        if let storage = error as? StorageError { return oneLine(storage) + storage.toolAdvice }
        if let classified = error as? any ClassifiedError { return classified.toolDescription }
        return "\(error)"
    }

    /// A service's error on one line, with its code: Azure's messages go on with `RequestId:` and
    /// `Time:` lines, and an authentication failure with the string it signed, which only clutter a
    /// terminal or a CI log.
    static func oneLine(_ error: StorageError) -> String {
        let text = error.description
        let first = text.prefix { $0 != "\n" && $0 != "\r" }
        guard first.count < text.count else { return text }
        guard let code = error.code, !first.contains(code) else { return String(first) }
        return first + " (\(code))"
    }
}
