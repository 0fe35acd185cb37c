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

    typealias LocateError = BuiltExecutable.LocateError

    /// A built executable of this package: `$<NAME>_EXECUTABLE`, else next to the test binary.
    static func locate(_ name: String) -> Result<String, LocateError> { BuiltExecutable.locate(name) }

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
