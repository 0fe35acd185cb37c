import ArgumentParser
package import SpeakEasyData

/// `--store`, named the same way in every tool.
package struct StoreOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The storage account: a path to the local SQLite account file. (default: \(Self.defaultPath))",
            discussion: "Azure accounts ('azure', 'dev', or a connection string) come with the Azure backend, which is not in this version.",
            valueName: "path"))
    private var store: String?

    package static let defaultPath = "speakeasy.sqlite"

    /// The account the option names: the one given, else the default.
    package var location: StorageLocation { StorageLocation(store ?? Self.defaultPath) }

    package init() {}

    package func validate() throws {
        guard let store else { return }
        let lowered = store.lowercased()
        if lowered == "azure" || lowered == "dev" || lowered.contains("accountkey=") || lowered.contains("usedevelopmentstorage=") {
            throw ValidationError("--store \(lowered.contains("accountkey=") ? "<connection string>" : store): the Azure backend is not available in this version; give a path to a local SQLite account")
        }
    }

    /// Tools that read either files or the account refuse `--store` beside files, rather than ignore one.
    package func refuse(besides files: [String]) throws {
        if store != nil, !files.isEmpty { throw ValidationError("give either files or --store, not both") }
    }

    /// Opens the account; read-only, a missing or empty one is 66 (input missing).
    package func open(readOnly: Bool = false) throws -> any StorageAccount {
        try location.open(readOnly: readOnly)
    }
}
