package import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tools' entry point: parses the arguments, runs the command, and reports every failure in one
/// voice — `tool: error: …` on stderr, as ``ToolExit`` reports run-time errors — with a usage hint
/// after an argument error. `--help` and `--version` still print to stdout and exit 0.
package enum ToolMain {
    package static func run<Command: AsyncParsableCommand>(_ command: Command.Type) async -> Never {
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
            guard code != .success else { Command.exit(withError: error) }  // --help, --version
            let tool = Command.configuration.commandName ?? CommandLine.arguments.first ?? "tool"
            Terminal.writeError(message(Command.fullMessage(for: error), tool: tool))
            exit(code.rawValue)
        }
        exit(0)
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
