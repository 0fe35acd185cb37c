import Foundation
import SpeakEasyData
import Testing

/// `serve`'s options and start-up failures, end to end. Each refused run here would otherwise start
/// serving (and wait for a signal), so each either is refused before a port is bound or names a
/// second fault that the parser reports when the first is let through.
@Suite("serve: options and start-up failures")
struct ServeOptionsTests {
    @Test("--store takes a local account file only: 'dev' would serve the store to itself")
    func storeIsLocal() async throws {
        let scratch = try Scratch()
        // --blob-port 70000 is refused too, after --store: were 'dev' taken, that would be the message.
        for store in ["dev", "AccountName=a;AccountKey=c2VjcmV0;TableEndpoint=http://127.0.0.1:1/a"] {
            let result = try await BuiltTool.serve.run(["--store", store, "--blob-port", "70000"], in: scratch.path)
            #expect(result.status == 64, "\(result)")
            #expect(
                result.stderr.hasPrefix(
                    "serve: error: --store: serve serves a local account file, not 'dev', 'azure' or a connection string\n"
                ),
                "\(result)"
            )
            #expect(!result.stderr.contains("c2VjcmV0"), "a key given in --store is not echoed")
        }
    }

    @Test("--store azure is refused as not local at once, not after asking for its variable")
    func storeAzureIsLocalFirst() async throws {
        let scratch = try Scratch()
        for value in ["", "UseDevelopmentStorage=true"] {
            let result = try await BuiltTool.serve.run(
                ["--store", "azure", "--blob-port", "70000"],
                in: scratch.path,
                environment: ["AZURE_STORAGE_CONNECTION_STRING": value]
            )
            #expect(result.status == 64, "\(result)")
            #expect(
                result.stderr.hasPrefix(
                    "serve: error: --store: serve serves a local account file, not 'dev', 'azure' or a connection string\n"
                ),
                "\(result)"
            )
        }
    }

    @Test("--port, which serve has not, points to --table-port and --blob-port, not --host")
    func noPort() async throws {
        let scratch = try Scratch()
        let result = try await BuiltTool.serve.run(["--port", "1"], in: scratch.path)
        #expect(result.status == 64, "\(result)")
        #expect(
            result.stderr.hasPrefix(
                "serve: error: serve has no --port: it listens on --table-port (default 10002) and --blob-port (default 10000)\n"
            ),
            "\(result)"
        )
        #expect(!result.stderr.contains("--host"), "\(result)")
        #expect(result.stderr.hasSuffix("See 'serve --help' for more information.\n"), "\(result)")
    }

    @Test("-q is accepted as in the other tools; --parallel, meaningless here, is not")
    func quietAndParallel() async throws {
        let scratch = try Scratch()
        let quiet = try await BuiltTool.serve.run(["-q", "--blob-port", "70000"], in: scratch.path)
        #expect(
            quiet.status == 64 && quiet.stderr.hasPrefix("serve: error: --blob-port 70000: a port is 0 to 65535\n"),
            "\(quiet)"
        )
        // Were --parallel taken, the run would fail to listen on an address that is not this machine's.
        let parallel = try await BuiltTool.serve.run(
            [
                "--parallel", "4", "--host", "192.0.2.1", "--blob-port", "0", "--table-port", "0", "--store",
                "new.sqlite",
            ],
            in: scratch.path
        )
        #expect(
            parallel.status == 64 && parallel.stderr.hasPrefix("serve: error: Unknown option '--parallel'"),
            "\(parallel)"
        )
    }

    @Test(
        "a negative port or latency is refused for its value, not as a missing one",
        arguments: [
            (["--blob-port", "-1"], "--blob-port -1: a port is 0 to 65535"),
            (["--table-port", "-2"], "--table-port -2: a port is 0 to 65535"),
            (["--ui-port", "-4"], "--ui-port -4: a port is 0 to 65535"),
            (["--latency", "-5"], "--latency -5: 0 to 600000 ms"),
            (["--page-size", "-3"], "--page-size -3: 1 to 1000"),
        ]
    )
    func negativeNumbers(arguments: [String], message: String) async throws {
        let scratch = try Scratch()
        let result = try await BuiltTool.serve.run(arguments, in: scratch.path)
        #expect(result.status == 64 && result.stderr.hasPrefix("serve: error: \(message)\n"), "\(result)")
    }

    @Test("--help gives --key's default once, in words, not the key itself")
    func keyDefault() async throws {
        let scratch = try Scratch()
        let help = try await BuiltTool.serve.run(["--help"], in: scratch.path)
        #expect(help.status == 0)
        let afterKey = help.stdout.components(separatedBy: "  --key <base64>").dropFirst().joined()
        let keyHelp = try #require(afterKey.components(separatedBy: "\n  --").first)
        #expect(keyHelp.components(separatedBy: "(default:").count == 2, "\(keyHelp)")
        #expect(!help.stdout.contains(String(DevelopmentAccount.key.prefix(12))), "\(help.stdout)")
    }

    @Test("an address it cannot listen on: exit 69 in plain words, and the store is not created")
    func cannotListen() async throws {
        let scratch = try Scratch()
        let result = try await BuiltTool.serve.run(
            ["--store", "new.sqlite", "--host", "192.0.2.1", "--blob-port", "0", "--table-port", "0", "-q"],
            in: scratch.path
        )
        #expect(result.status == 69, "\(result)")
        #expect(
            result.stderr == "serve: error: cannot listen on 192.0.2.1: not an address of this machine\n",
            "\(result)"
        )
        #expect(!fileExists(scratch.file("new.sqlite")), "the store was created before the ports were bound")
    }
}
