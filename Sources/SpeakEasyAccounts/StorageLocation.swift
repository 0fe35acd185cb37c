package import SpeakEasyAzure
import SpeakEasyCore
import SpeakEasyModel
package import SpeakEasyProtocol
import SpeakEasySQLite
package import SpeakEasyStorage

/// Where a `--store` value points, and the one way every tool opens the account there.
///
/// - `azure`: the connection string in `AZURE_STORAGE_CONNECTION_STRING`, as the Azure CLI and SDKs
///   read it;
/// - `dev`: `UseDevelopmentStorage=true`, the development account on 127.0.0.1 (Azurite, `serve`);
/// - a connection string (`AccountName=…;AccountKey=…`, or with endpoints or a SAS token);
/// - anything else is the path of a local account file (`./azure` for a file of that name).
///
/// The tools hold only the ``StorageAccount`` this gives them, never a backend's type.
package enum StorageLocation: Sendable {
    case local(path: String)
    case azure(AzureConnection)

    /// A local account's name, as the blob URLs `seed` writes into it carry it (``LocalAccount``).
    package static let localAccountName = LocalAccount.name
    /// Where a local account's blobs are served (``LocalAccount``).
    package static let localBlobEndpoint = LocalAccount.blobEndpoint

    /// The environment variable `azure` reads.
    package static let connectionStringVariable = "AZURE_STORAGE_CONNECTION_STRING"

    /// Reads a `--store` value; a connection string that cannot be used is an error naming the
    /// setting at fault (never a secret).
    package init(_ value: String, environment: [String: String]) throws(ConnectionString.ParseError) {
        switch value.lowercased() {
        case "azure":
            guard let text = environment[Self.connectionStringVariable], !text.isEmpty else {
                throw ConnectionString.ParseError(
                    setting: "",
                    reason:
                        "'azure' names the account in \(Self.connectionStringVariable), which is not set (or give a connection string)"
                )
            }
            self = .azure(try AzureConnection(ConnectionString(text)))
        case "dev":
            self = .azure(try AzureConnection(ConnectionString("UseDevelopmentStorage=true")))
        case let lowered where Self.isConnectionString(lowered):
            self = .azure(try AzureConnection(ConnectionString(value)))
        default:
            self = .local(path: value)
        }
    }

    /// Whether the value was taken for a local path that no one means: an empty one, or a URL
    /// (`https://acct.table.core.windows.net`), which would otherwise fail later as a file that is not
    /// an account. An account's endpoint comes in a connection string.
    package var isImplausiblePath: Bool {
        guard case .local(let path) = self else { return false }
        return path.isEmpty || path.contains("://")
    }

    /// What to say about an implausible path (``isImplausiblePath``), after the value.
    package static let implausiblePathAdvice =
        "is not a storage account: give a local account file, 'azure', 'dev' or a connection string "
        + "(\"AccountName=…;AccountKey=…\", or with TableEndpoint, BlobEndpoint, SharedAccessSignature)"

    /// Whether a `--store` value names a local account file, as ``init(_:environment:)`` would read
    /// it, without reading the environment or the connection string.
    package static func namesLocalFile(_ value: String) -> Bool {
        let lowered = value.lowercased()
        return lowered != "azure" && lowered != "dev" && !isConnectionString(lowered)
    }

    /// Whether a `--store` value is a connection string: it sets one of the settings that make one.
    private static func isConnectionString(_ lowered: String) -> Bool {
        [
            "usedevelopmentstorage=", "accountname=", "accountkey=", "tableendpoint=", "blobendpoint=",
            "sharedaccesssignature=", "defaultendpointsprotocol=",
        ]
        .contains { lowered.hasPrefix($0) || lowered.contains(";" + $0) }
    }

    /// For messages: the path, or the account's name and table endpoint.
    package var displayName: String {
        switch self {
        case .local(let path): path
        case .azure(let connection): connection.displayName
        }
    }

    /// The account's name, as its blob URLs carry it; known before the account is opened, so a dry run
    /// writes the same URLs a real one would.
    package var accountName: String {
        switch self {
        case .local: Self.localAccountName
        case .azure(let connection): connection.accountName
        }
    }

    /// The account's table endpoint, ending in `/`: what an export names as the entities' address.
    package var tableEndpoint: String {
        switch self {
        case .local: LocalAccount.tableEndpoint
        case .azure(let connection): connection.tableEndpoint + "/"
        }
    }

    package func blobURL(container: String, blob: String) -> String {
        switch self {
        case .local: Self.localBlobEndpoint + container + "/" + BlobURL.escape(blob)
        case .azure(let connection): AzureStorageAccount.blobURL(connection, container: container, blob: blob)
        }
    }

    /// Opens the account; unless `readOnly`, creates a local one when there is none. Reading a local
    /// account that is not there is ``StorageError/Reason/notFound``. An Azure account is reached
    /// only by the first request; `parallel` is how many it sends at once.
    package func open(
        readOnly: Bool,
        parallel: Int = AzureStorageAccount.defaultParallel
    ) throws(StorageError) -> any StorageAccount {
        switch self {
        case .local(let path):
            try SQLiteStorageAccount(
                path: path,
                readOnly: readOnly,
                accountName: Self.localAccountName,
                blobEndpoint: Self.localBlobEndpoint
            )
        case .azure(let connection): AzureStorageAccount(connection, parallel: parallel)
        }
    }

    /// The account for reading if one is there, else nil (nothing is created). An Azure account is
    /// always there.
    package func openIfPresent(
        parallel: Int = AzureStorageAccount.defaultParallel
    ) throws(StorageError) -> (any StorageAccount)? {
        do {
            return try open(readOnly: true, parallel: parallel)
        } catch  where error.reason == .notFound {
            return nil
        }
    }
}
