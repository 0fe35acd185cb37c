/// Where a `--store` value points, and the one way every tool opens the account there.
///
/// The tools hold only the ``StorageAccount`` this gives them, never a backend's type. Azure accounts
/// (`azure`, `dev`, connection strings) come with the Azure backend; today every value is the path of
/// a local account file.
package enum StorageLocation: Hashable, Sendable {
    case local(path: String)

    package init(_ value: String) {
        self = .local(path: value)
    }

    /// For messages: the path, or the account's name.
    package var displayName: String {
        switch self {
        case .local(let path): path
        }
    }

    /// The account's name, as its blob URLs carry it; known before the account is opened, so a dry run
    /// writes the same URLs a real one would.
    package var accountName: String {
        switch self {
        case .local: SQLiteStorageAccount.accountName
        }
    }

    package func blobURL(container: String, blob: String) -> String {
        switch self {
        case .local: SQLiteStorageAccount.blobURL(container: container, blob: blob)
        }
    }

    /// Opens the account; unless `readOnly`, creates it when there is none. Reading an account that
    /// is not there is ``StorageError/Reason/notFound``.
    package func open(readOnly: Bool) throws(StorageError) -> any StorageAccount {
        switch self {
        case .local(let path): try SQLiteStorageAccount(path: path, readOnly: readOnly)
        }
    }

    /// The account for reading if one is there, else nil (nothing is created).
    package func openIfPresent() throws(StorageError) -> (any StorageAccount)? {
        do {
            return try open(readOnly: true)
        } catch where error.reason == .notFound {
            return nil
        }
    }
}
