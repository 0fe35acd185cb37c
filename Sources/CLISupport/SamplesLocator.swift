internal import BuiltInSamples
package import SpeakEasyData

/// Where `seed` takes its samples from: the directory `--samples` gives, else `./samples` when it
/// holds a `catalog.json` (a user's own catalog), else the copy built into the tool, so that a binary
/// copied anywhere runs with no files beside it.
package enum SamplesLocator {
    package enum Source: Equatable, Sendable {
        case directory(String)
        case builtIn
    }

    /// `local` is the directory looked at when none is given: `samples` in the working directory.
    package static func source(given: String?, local: String = "samples") -> Source {
        if let given { return .directory(given) }
        if FileSystem.kind(of: local + "/" + SampleCatalog.catalogFileName) == .file { return .directory(local) }
        return .builtIn
    }

    /// The catalog from ``source(given:local:)``.
    package static func catalog(given: String?) throws(SampleCatalogError) -> SampleCatalog {
        switch source(given: given) {
        case .directory(let directory): return try SampleCatalog(directory: directory)
        case .builtIn: return try SampleCatalog.builtIn()
        }
    }
}

extension SampleCatalog {
    /// What messages call the built-in copy's directory (`built-in samples/catalog.json`).
    package static let builtInDirectory = "built-in samples"

    /// The repository's `samples/` as built into the tools (``BuiltInSamples``), read exactly as a
    /// directory is: the same checks, and the same fingerprint as the directory it came from.
    package static func builtIn() throws(SampleCatalogError) -> SampleCatalog {
        try SampleCatalog(directory: builtInDirectory) { path, _ throws(FileError) in
            guard let bytes = BuiltInSamples.files[String(path.dropFirst(builtInDirectory.count + 1))] else {
                throw FileError(path: path, reason: "is not among the built-in samples", kind: .inputMissing)
            }
            return bytes
        }
    }
}
