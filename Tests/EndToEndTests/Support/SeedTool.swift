import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds and runs the built `seed` executable.
enum SeedTool {
    static let packageRoot = TestPaths.packageRoot

    /// The package's own samples directory.
    static let samples = TestPaths.samples

    /// `seed` in the build products directory the test binary runs from (or `$SEED_EXECUTABLE`).
    static let executable: Result<String, LocateError> = locate("seed")

    struct LocateError: Error, CustomStringConvertible {
        var description: String
    }

    /// A built executable of this package: `$<NAME>_EXECUTABLE`, else next to the test binary.
    static func locate(_ name: String) -> Result<String, LocateError> {
        let variable = name.uppercased() + "_EXECUTABLE"
        if let given = ProcessInfo.processInfo.environment[variable], !given.isEmpty {
            return isExecutableFile(given)
                ? .success(given) : .failure(LocateError(description: "\(variable)=\(given) is not an executable file"))
        }
        var starts: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { starts.append(exe) }
        if let first = CommandLine.arguments.first, !first.isEmpty {
            starts.append(first.hasPrefix("/") ? first : FileManager.default.currentDirectoryPath + "/" + first)
        }
        var searched: [String] = []
        for start in starts where !start.isEmpty {
            // The test binary sits in the products directory (on macOS inside an .xctest bundle in it):
            // walk up a few levels looking for a sibling executable.
            var directory = URL(fileURLWithPath: start).resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<5 {
                let candidate = directory.appendingPathComponent(name).path
                searched.append(candidate)
                if isExecutableFile(candidate) { return .success(candidate) }
                if directory.path == "/" { break }
                directory.deleteLastPathComponent()
            }
        }
        return .failure(
            LocateError(
                description:
                    "the `\(name)` executable was not found next to the test binary (looked at \(searched.joined(separator: ", "))). "
                    + "Build it first: `swift build --build-tests` (or set \(variable))."
            )
        )
    }

    static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && access(path, X_OK) == 0
    }

    static func path() throws -> String {
        switch executable {
        case .success(let path): return path
        case .failure(let error):
            Issue.record(error)
            throw error
        }
    }

    /// Runs `seed` with `arguments` in `directory`; adds `--samples <package samples>` unless given.
    static func run(
        _ arguments: [String],
        in directory: String,
        samples: String? = SeedTool.samples,
        environment: [String: String] = [:]
    ) async throws -> ProcessResult {
        try await Subprocess.run(
            try path(),
            arguments + (samples.map { ["--samples", $0] } ?? []),
            directory: directory,
            environment: environment
        )
    }

    /// Seeds a new store named `name` in `scratch` with `seed` (8 speakers, 100 events from
    /// 2026-01-01) and returns its path.
    static func seededStore(
        _ scratch: borrowing Scratch,
        seed: Int = 42,
        name: String = "store.sqlite"
    ) async throws -> String {
        let store = scratch.file(name)
        let result = try await run(
            ["--events", "100", "--from", "2026-01-01", "--seed", String(seed), "--store", store, "--quiet"],
            in: scratch.path
        )
        try #require(result.status == 0, "\(result)")
        return store
    }

    /// Starts `seed` without waiting for it.
    static func start(_ arguments: [String], in directory: String) throws -> Subprocess {
        try Subprocess(try path(), arguments + ["--samples", samples], directory: directory)
    }
}

/// A fresh directory for one test, removed afterwards.
struct Scratch: ~Copyable {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/seed-e2e-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the directory.
    func file(_ name: String) -> String { path + "/" + name }

    deinit {
        // Undo any chmod a test made so the removal succeeds.
        if let items = FileManager.default.enumerator(atPath: path) {
            for case let item as String in items { chmod(path + "/" + item, 0o755) }
        }
        chmod(path, 0o755)
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Whether this process runs as root, for whom file permissions do not apply.
var runningAsRoot: Bool { geteuid() == 0 }

func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

/// Names of the entries in a directory, sorted.
func directoryListing(_ path: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
}
