internal import CSQLite
import SpeakEasyStorage

/// An SQLite result inside the local account, with the store's path and SQLite's message; reported
/// to callers as the ``StorageError`` it stands for.
struct SQLiteError: Error, CustomStringConvertible {
    let path: String
    /// SQLite's primary result code (`SQLITE_BUSY`, …).
    let code: Int32
    let message: String
    /// Set where the local account knows better than SQLite's code what went wrong.
    var reason: StorageError.Reason?
    var azureCode: String?
    /// What a tool adds after the message (``StorageError/toolAdvice``).
    var toolAdvice = ""

    init(
        path: String,
        code: Int32,
        message: String,
        reason: StorageError.Reason? = nil,
        azureCode: String? = nil,
        toolAdvice: String = ""
    ) {
        self.path = path
        self.code = code
        self.message = message
        self.reason = reason
        self.azureCode = azureCode
        self.toolAdvice = toolAdvice
    }

    /// Whether another connection's lock stopped the statement (it may succeed later).
    var isLocked: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    var storageError: StorageError {
        let reason: StorageError.Reason =
            self.reason
            ?? {
                switch code {
                case SQLITE_BUSY, SQLITE_LOCKED: .busy
                case SQLITE_NOTADB, SQLITE_CORRUPT: .corrupt
                case SQLITE_CONSTRAINT: .alreadyExists
                case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM: .unauthorized
                default: .unavailable
                }
            }()
        let text =
            switch code {
            case SQLITE_BUSY, SQLITE_LOCKED: "the store is locked by another process (\(message))"
            case SQLITE_READONLY: "the store is read-only (\(message))"
            default: message
            }
        var error = StorageError(reason, account: path, text, code: azureCode)
        error.toolAdvice = toolAdvice
        return error
    }

    var description: String { storageError.description }
}
