import SpeakEasyData

/// Finds the samples directory: the one given, else `./samples`, else the package's own `samples/`.
package enum SamplesLocator {
    package static func directory(given: String?, sourceFile: String = #filePath) -> String {
        if let given { return given }
        if FileSystem.kind(of: "samples/" + SampleCatalog.catalogFileName) == .file { return "samples" }
        // Sources/CLISupport/SamplesLocator.swift → the package root, for builds run from elsewhere.
        var root = sourceFile
        for _ in 0..<3 { root = FileSystem.directory(of: root) }
        return root + "/samples"
    }
}
