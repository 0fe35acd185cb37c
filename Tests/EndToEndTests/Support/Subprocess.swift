import Foundation
import SpeakEasyData
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a finished subprocess ended and what it printed.
struct ProcessResult: Sendable, CustomStringConvertible {
    var arguments: [String]
    /// The exit status, or the signal number when `killedBySignal`.
    var status: Int32
    var killedBySignal: Bool
    var stdout: String
    var stderr: String

    var description: String {
        "`\(arguments.joined(separator: " "))` → \(killedBySignal ? "signal" : "exit") \(status)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)"
    }
}

/// A running child process whose stdout and stderr are read on threads of their own (never on the
/// cooperative pool, which parallel tests share), so a full pipe never stalls the child.
final class Subprocess: Sendable {
    private let process: ChildProcess
    private let arguments: [String]
    private let output = Buffer()
    private let errorOutput = Buffer()
    private let readersDone = DispatchGroup()

    /// Starts `executable`; `withInput` gives it a stdin pipe (else /dev/null). `environment` is set
    /// over this process's, less any Azure account of the developer's: a test names its account.
    init(
        _ executable: String,
        _ arguments: [String],
        directory: String,
        environment extra: [String: String] = [:],
        withInput: Bool = false
    ) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        environment["AZURE_STORAGE_CONNECTION_STRING"] = nil
        environment.merge(extra) { _, given in given }
        process = try ChildProcess(
            executable,
            arguments,
            directory: directory,
            environment: environment,
            withInput: withInput
        )
        self.arguments = [executable] + arguments
        Self.drain(process.stdout, into: output, group: readersDone)
        Self.drain(process.stderr, into: errorOutput, group: readersDone)
    }

    /// Bytes a reader thread collects.
    private final class Buffer: Sendable {
        private let data = Locked(Data())
        func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
        var text: String { String(decoding: data.withLock { $0 }, as: UTF8.self) }
    }

    private static func drain(_ handle: FileHandle, into buffer: Buffer, group: DispatchGroup) {
        group.enter()
        let thread = Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
            }
            try? handle.close()
            group.leave()
        }
        thread.start()
    }

    var processIdentifier: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }
    var stdoutSoFar: String { output.text }

    func write(_ text: String) throws {
        try process.stdin?.write(contentsOf: Data(text.utf8))
    }

    func closeInput() {
        try? process.stdin?.close()
    }

    func kill(_ signal: Int32) {
        #if canImport(Glibc)
        _ = Glibc.kill(process.processIdentifier, signal)
        #else
        _ = Darwin.kill(process.processIdentifier, signal)
        #endif
    }

    /// Waits (up to `seconds`) until stdout contains `text`; false on timeout or exit first.
    func waitForOutput(containing text: String, seconds: Double = 20) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if stdoutSoFar.contains(text) { return true }
            if !process.isRunning && stdoutSoFar.contains(text) == false {
                // Give the reader a moment to collect the last bytes.
                try await Task.sleep(for: .milliseconds(50))
                return stdoutSoFar.contains(text)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Waits for the child to exit and its pipes to reach EOF.
    func finish() async -> ProcessResult {
        let process = process
        let readersDone = readersDone
        let (status, signalled) = await withCheckedContinuation {
            (continuation: CheckedContinuation<(Int32, Bool), Never>) in
            let thread = Thread {
                let exit = process.waitForExit()
                readersDone.wait()
                continuation.resume(returning: exit)
            }
            thread.start()
        }
        return ProcessResult(
            arguments: arguments,
            status: status,
            killedBySignal: signalled,
            stdout: output.text,
            stderr: errorOutput.text
        )
    }

    /// Runs a command to completion.
    static func run(
        _ executable: String,
        _ arguments: [String],
        directory: String,
        environment: [String: String] = [:]
    ) async throws -> ProcessResult {
        try await Subprocess(executable, arguments, directory: directory, environment: environment).finish()
    }
}
