import ArgumentParser
package import SpeakEasyData

/// `--store`, named the same way in every tool.
package struct StoreOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The storage account: a path to the local SQLite account file.",
            discussion: "Azure accounts ('azure', 'dev', or a connection string) come with the Azure backend, which is not in this version.",
            valueName: "path"))
    package var store = "speakeasy.sqlite"

    package init() {}

    package func validate() throws {
        let lowered = store.lowercased()
        if lowered == "azure" || lowered == "dev" || lowered.contains("accountkey=") || lowered.contains("usedevelopmentstorage=") {
            throw ValidationError("--store \(lowered.contains("accountkey=") ? "<connection string>" : store): the Azure backend is not available in this version; give a path to a local SQLite account")
        }
    }

    /// Opens the local account.
    package func open(readOnly: Bool = false) throws -> SQLiteStorageAccount {
        try SQLiteStorageAccount(path: store, readOnly: readOnly)
    }

    /// Opens an account that must already exist (to read from it): a missing file is 66.
    package func openExisting(readOnly: Bool = true) throws -> SQLiteStorageAccount {
        guard FileSystem.kind(of: store) != .missing else {
            throw FileError(path: store, reason: "no storage account here; run seed first, or name one with --store", kind: .inputMissing)
        }
        return try open(readOnly: readOnly)
    }
}
