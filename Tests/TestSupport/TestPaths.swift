import Foundation

/// Paths in the package's checkout that every test target reads: the samples and the recorded payloads.
package enum TestPaths {
    /// The package root, found from this file's location (`Tests/TestSupport/`).
    package static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The sample data shipped with the package.
    package static var samples: String { packageRoot + "/samples" }

    /// Real payloads recorded from Azure, with their provenance (`Tests/Fixtures/azure/README.md`).
    package static var azureFixtures: String { packageRoot + "/Tests/Fixtures/azure" }
}
