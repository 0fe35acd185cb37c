import Testing

@testable import CLISupport

@Suite("argument errors in the tools' voice")
struct ToolMainTests {
    @Test("the parser's message becomes `tool: error: …`, its usage and help hint kept, unindented")
    func usageError() {
        let parser =
            "Error: Missing value for '--max-errors <N>'\nHelp:  --max-errors <N>  Stop after N errors.\nUsage: validate [<file> ...]\n  See 'validate --help' for more information.\n"
        #expect(
            ToolMain.message(parser, tool: "validate")
                == "validate: error: Missing value for '--max-errors <N>'\nHelp:  --max-errors <N>  Stop after N errors.\nUsage: validate [<file> ...]\nSee 'validate --help' for more information.\n"
        )
    }

    @Test("--help ends with the exit status table, after the options")
    func helpEndsWithExitStatus() {
        let help = "OVERVIEW: x\n\nUSAGE: seed <options>\n\nOPTIONS:\n  -h, --help   Show help information.\n\n"
        #expect(
            ToolMain.helpText(help, exitStatus: "Exit status:\n  0   success")
                == "OVERVIEW: x\n\nUSAGE: seed <options>\n\nOPTIONS:\n  -h, --help   Show help information.\n\nExit status:\n  0   success\n"
        )
    }

    @Test("a message without the parser's prefix keeps its text")
    func plain() {
        #expect(ToolMain.message("something odd", tool: "seed") == "seed: error: something odd\n")
    }

    @Test("every code of the exit status help is listed once, with 1 and the signals only where asked")
    func exitStatusHelp() {
        let codes = { (text: String) in
            text.split(separator: "\n").dropFirst().compactMap { Int($0.split(separator: " ").first ?? "") }
        }
        #expect(codes(ExitStatusHelp.text(output: "o")) == [0, 64, 65, 66, 69, 73, 74, 130, 143])
        #expect(
            codes(ExitStatusHelp.text(findings: "problems", output: "o")) == [0, 1, 64, 65, 66, 69, 73, 74, 130, 143]
        )
        #expect(codes(ExitStatusHelp.text(output: "o", interrupted: false)) == [0, 64, 65, 66, 69, 73, 74])
    }
}
