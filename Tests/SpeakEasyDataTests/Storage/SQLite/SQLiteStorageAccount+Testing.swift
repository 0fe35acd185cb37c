import SpeakEasyData
import SpeakEasySQLite

extension SQLiteStorageAccount {
    /// The account as the tools open a local store (``StorageLocation/local(path:)``), with its
    /// concrete type, for the tests of the SQLite backend itself.
    convenience init(path: String, readOnly: Bool = false) throws(StorageError) {
        try self.init(
            path: path,
            readOnly: readOnly,
            accountName: StorageLocation.localAccountName,
            blobEndpoint: StorageLocation.localBlobEndpoint
        )
    }
}
