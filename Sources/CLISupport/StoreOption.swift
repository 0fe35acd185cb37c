import ArgumentParser
import Foundation
package import SpeakEasyData

/// `--store` and `--parallel`, named the same way in every tool.
package struct StoreOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The storage account: a local account file, 'azure', 'dev', or a connection string. (default: \(Self.defaultPath))",
            discussion: """
                A path names a local SQLite account file. 'azure' is the account in \(StorageLocation.connectionStringVariable); \
                'dev' is the development account on 127.0.0.1 (Azurite, or `serve`); a connection string \
                ("AccountName=…;AccountKey=…", or with TableEndpoint, BlobEndpoint, SharedAccessSignature) names any other. \
                Plain http is allowed only on loopback and for the development account.
                """,
            valueName: "store"
        )
    )
    private var store: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Requests an Azure account is sent at once.",
            // Shared by every tool: what each does with it is in that tool's own help.
            discussion: "A local account file ignores it.",
            valueName: "n"
        )
    )
    private var parallel: Int = AzureStorageAccount.defaultParallel

    package static let defaultPath = "speakeasy.sqlite"

    /// The account the option names: the one given, else the default. Valid once parsing has
    /// validated the options.
    package var location: StorageLocation {
        (try? StorageLocation(store ?? Self.defaultPath, environment: ProcessInfo.processInfo.environment))
            ?? .local(path: Self.defaultPath)
    }

    package init() {}

    /// How many ranges export and validate read from the account at once (`ParallelScan`): --parallel
    /// for a remote account, whose pages each cost a round trip; 1 for a local file, whose one scan
    /// in key order has no round trips to overlap and whose reader already runs ahead of the caller.
    package var readParallel: Int {
        if case .local = location { return 1 }
        return parallel
    }

    package func validate() throws {
        guard (1...256).contains(parallel) else {
            throw ValidationError("--parallel must be from 1 to 256, not \(parallel)")
        }
        if let store { _ = try Self.location(of: store) }
    }

    /// What a `--store` value names, or a usage error. An empty value or a bare URL would otherwise
    /// be taken for a file's path, and the error would be that no account file is there.
    package static func location(of value: String) throws -> StorageLocation {
        let location: StorageLocation
        do {
            location = try StorageLocation(value, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError("--store: \(error)")
        }
        if location.isImplausiblePath {
            throw ValidationError("--store '\(value)' \(StorageLocation.implausiblePathAdvice)")
        }
        return location
    }

    /// Tools that read either files or the account refuse `--store` beside files, rather than ignore one.
    package func refuse(besides files: [String]) throws {
        if store != nil, !files.isEmpty { throw ValidationError("give either files or --store, not both") }
    }

    /// Opens the account; read-only, a missing or empty local one is 66 (input missing).
    package func open(readOnly: Bool = false) throws -> any StorageAccount {
        try location.open(readOnly: readOnly, parallel: parallel)
    }

    /// The account a whole table is read from (`export`, `validate`), opened for reading. A remote
    /// account's pages each come as a body of about 1.4 MB, allocated afresh a thousand times in a
    /// read of 1,000,000 entities, so the process keeps the memory it frees for reuse (``FreedMemory``).
    /// Not for files or a local store: their conversions peak near their 64 MB bound, and keeping freed
    /// memory took 3 MB more of it.
    package func openForReading() throws -> any StorageAccount {
        if case .local = location {} else { FreedMemory.keepForReuse() }
        return try open(readOnly: true)
    }

    /// The account for reading if one is there, else nil (nothing is created).
    package func openIfPresent() throws -> (any StorageAccount)? {
        try location.openIfPresent(parallel: parallel)
    }
}
