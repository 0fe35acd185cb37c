internal import CSQLite

/// An SQLite failure, with the store's path, SQLite's message and what we were doing.
package struct SQLiteError: ClassifiedError {
    package let path: String
    /// SQLite's primary result code (`SQLITE_BUSY`, …).
    package let code: Int32
    package let message: String

    package var kind: FailureKind {
        switch code {
        case SQLITE_BUSY, SQLITE_LOCKED: .storageUnavailable
        case SQLITE_NOTADB, SQLITE_CORRUPT: .malformedInput
        case SQLITE_NOTFOUND: .inputMissing
        case SQLITE_CONSTRAINT: .malformedInput
        case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM: .cannotCreateOutput
        case SQLITE_FULL, SQLITE_IOERR: .ioError
        default: .ioError
        }
    }

    package var description: String {
        switch code {
        case SQLITE_BUSY, SQLITE_LOCKED: "\(path): the store is locked by another process (\(message))"
        case SQLITE_READONLY: "\(path): the store is read-only (\(message))"
        default: "\(path): \(message)"
        }
    }
}
