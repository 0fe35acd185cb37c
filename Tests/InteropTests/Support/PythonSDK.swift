import Foundation
import SpeakEasyData
import TestSupport
import Testing

/// The official Azure SDKs for Python, run as independent readers and writers of our formats.
///
/// The scripts in `Tests/InteropTests/python/` call only the SDKs' own (de)serialisers and print a
/// canonical dump (`python/canonical.py`); nothing here or there imitates the SDKs' logic.
///
/// They run with the Python named by `SPEAKEASY_INTEROP_PYTHON`, a virtualenv made by
/// `Tests/InteropTests/setup.sh` (`.ci/run` does this). Without the variable the tests are skipped on
/// a developer's machine, and fail with a message saying so when `CI` is set.
enum PythonSDK {
    static let environment = ProcessInfo.processInfo.environment
    static let python: String? = environment["SPEAKEASY_INTEROP_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
    static let inCI = !(environment["CI"] ?? "").isEmpty
    /// Run the interop tests: when the SDKs are there, and always on CI (where their absence is a failure).
    static let enabled = python != nil || inCI
    /// Shown when the tests are skipped.
    static let howToEnable: Comment =
        "needs the Azure SDKs for Python: run Tests/InteropTests/setup.sh, then export SPEAKEASY_INTEROP_PYTHON=$PWD/.venv-interop/bin/python"

    static let scripts: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()  // Support
        url.deleteLastPathComponent()  // InteropTests
        return url.appendingPathComponent("python").path
    }()

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The virtualenv's python, or a recorded failure that says how to get one.
    static func interpreter() throws -> String {
        guard let python else {
            throw Failure(
                description:
                    "SPEAKEASY_INTEROP_PYTHON is not set but CI is: the interop tests need the Azure SDKs for Python. "
                    + "Run Tests/InteropTests/setup.sh and export SPEAKEASY_INTEROP_PYTHON=$PWD/.venv-interop/bin/python (.ci/run does both)."
            )
        }
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(
                description: "SPEAKEASY_INTEROP_PYTHON=\(python) is not an executable; run Tests/InteropTests/setup.sh"
            )
        }
        return python
    }

    /// Runs `python/<script> arguments…`; returns its stdout, or throws with its stderr when it fails.
    static func run(_ script: String, _ arguments: [String]) throws -> [UInt8] {
        let python = try interpreter()
        var environment = Self.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"  // no __pycache__ in the source tree
        environment["PYTHONIOENCODING"] = "utf-8"
        environment["PYTHONSAFEPATH"] = nil  // the scripts import canonical.py from their own folder
        let result = try ChildProcess.run(python, [scripts + "/" + script] + arguments, environment: environment)
        guard !result.killedBySignal, result.status == 0 else {
            let message = String(decoding: result.stderr, as: UTF8.self)
            throw Failure(
                description:
                    "\(script) \(arguments.joined(separator: " ")) \(result.killedBySignal ? "died of signal" : "exited with") \(result.status):\n\(message)"
            )
        }
        return Array(result.stdout)
    }

    /// Runs a script that prints a canonical dump and decodes it.
    static func dump(_ script: String, _ arguments: [String]) throws -> [DumpEntity] {
        try DumpEntity.lines(try run(script, arguments))
    }
}

/// One entity as an SDK read it, or as a writer script declares it must read (python/canonical.py).
struct DumpEntity: Decodable {
    struct Instant: Decodable {
        var value: String
        var micros: Int64
    }

    struct Value: Decodable {
        var name: String
        var type: String
        var value: String
        /// A DateTime's instant as a Python datetime holds it: microseconds since 0001-01-01.
        var micros: Int64?
        /// "seconds": the SDK keeps this DateTime only to the second.
        var compare: String?
    }

    var partitionKey: String
    var rowKey: String
    var timestamp: Instant?
    var etag: String?
    var properties: [Value]

    /// The entities of a dump, one JSON object a line.
    static func lines(_ bytes: some Collection<UInt8>) throws -> [DumpEntity] {
        let decoder = JSONDecoder()
        return try bytes.split(separator: UInt8(ascii: "\n")).map {
            try decoder.decode(DumpEntity.self, from: Data($0))
        }
    }

    enum CodingKeys: String, CodingKey {
        case partitionKey = "PartitionKey"
        case rowKey = "RowKey"
        case timestamp = "Timestamp"
        case etag
        case properties
    }
}

/// A fresh directory for one test, removed afterwards.
func withScratchDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("speakeasy-interop-\(UUID().uuidString)")
        .path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

func readAll(_ reader: inout some EntityReader) throws -> [Entity] {
    var entities: [Entity] = []
    while let entity = try reader.next() { entities.append(entity) }
    return entities
}

func readJSONFile(_ path: String) throws -> [Entity] {
    var reader = JSONEntityStreamReader(input: try ByteInput(path: path))
    return try readAll(&reader)
}

func readAtomFile(_ path: String) throws -> [Entity] {
    var reader = AtomEntityReader(input: try ByteInput(path: path))
    return try readAll(&reader)
}

func format(_ entities: [Entity], with formatter: some EntityFormatter) throws -> [UInt8] {
    var formatter = formatter
    var out: [UInt8] = []
    formatter.begin(into: &out)
    for entity in entities { try formatter.append(entity, into: &out) }
    formatter.end(into: &out)
    return out
}
