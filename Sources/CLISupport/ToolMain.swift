package import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tools' entry point: parses the arguments, runs the command, and reports every failure in one
/// voice — `tool: error: …` on stderr, as ``ToolExit`` reports run-time errors — with a usage hint
/// after a usage error, whether the parser or the run found it. `--help` and `--version` still print
/// to stdout and exit 0; `--help` ends with `exitStatus` (``ExitStatusHelp``), after the options.
package enum ToolMain {
    package static func run<Command: AsyncParsableCommand>(_ command: Command.Type, exitStatus: String) async -> Never {
        Signals.install()
        do {
            var parsed = try await Command.asyncParseAsRoot()
            if var asynchronous = parsed as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try parsed.run()
            }
        } catch let code as ExitCode {
            // Run-time errors were reported by ToolExit already.
            exit(code.rawValue)
        } catch {
            let code = Command.exitCode(for: error)
            guard code != .success else {
                let text = Command.fullMessage(for: error)
                // The parser has no place after the options, where the README puts the table.
                guard Self.isVersion(text, of: Command.self) else {
                    Terminal.writeOutput(helpText(text, exitStatus: exitStatus))
                    exit(0)
                }
                Command.exit(withError: error)
            }
            let tool = Command.configuration.commandName ?? CommandLine.arguments.first ?? "tool"
            Terminal.writeError(message(Command.fullMessage(for: error), tool: tool))
            exit(code.rawValue)
        }
        exit(0)
    }

    /// Whether the parser's answer is the `--version` text rather than the help.
    static func isVersion<Command: ParsableCommand>(_ text: String, of command: Command.Type) -> Bool {
        !Command.configuration.version.isEmpty
            && text.trimmingSuffix(while: \.isNewline) == Command.configuration.version
    }

    /// The parser's help, then the exit status table, as the last paragraph.
    static func helpText(_ help: String, exitStatus: String) -> String {
        help.trimmingSuffix(while: \.isNewline) + "\n\n" + exitStatus + "\n"
    }

    /// The parser's message (`Error: …`, then `Usage: …` and a hint to `--help`) in our voice.
    static func message(_ parserText: String, tool: String) -> String {
        var text = Substring(parserText)
        if text.hasPrefix("Error: ") { text = text.dropFirst("Error: ".count) }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.drop { $0 == " " }) }
        while lines.last == "" { lines.removeLast() }
        guard let first = lines.first else { return "\(tool): error: invalid arguments\n" }
        return (["\(tool): error: \(first)"] + lines.dropFirst()).joined(separator: "\n") + "\n"
    }
}

extension String {
    /// The string without the characters at its end that match.
    fileprivate func trimmingSuffix(while matches: (Character) -> Bool) -> String {
        var text = Substring(self)
        while let last = text.last, matches(last) { text = text.dropLast() }
        return String(text)
    }
}
