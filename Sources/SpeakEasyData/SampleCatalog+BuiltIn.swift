internal import BuiltInSamples
import SpeakEasyCore
package import SpeakEasySeeding

extension SampleCatalog {
    /// What messages call the built-in copy's directory (`built-in samples/catalog.json`).
    package static let builtInDirectory = "built-in samples"

    /// The repository's `samples/` as built into the library and the tools (``BuiltInSamples``), read exactly as a
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
