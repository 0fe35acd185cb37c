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
