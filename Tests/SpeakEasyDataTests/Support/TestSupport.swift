import Foundation
import SpeakEasyData
// The temporary directories every test target shares.
@_exported import TestFixtures

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Paths and scratch space shared by the unit tests.
enum TestPaths {
    /// The package root, found from this file's location (`Tests/SpeakEasyDataTests/Support/`).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The sample data shipped with the package.
    static var samples: String { packageRoot + "/samples" }

    /// Real payloads recorded from Azure, with their provenance (`Tests/Fixtures/azure/README.md`).
    static var azureFixtures: String { packageRoot + "/Tests/Fixtures/azure" }
}

/// Writes bytes to a file, replacing it.
func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

func writeFile(_ path: String, _ text: String) throws {
    try writeFile(path, Array(text.utf8))
}

func readFile(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}
