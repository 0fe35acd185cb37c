/// A storage account's failure, the same whichever backend stands behind the account.
///
/// The reasons are those Azure Storage answers with, so a REST client maps a response onto one and a
/// server maps one back onto a response; the local account maps its SQLite results onto them. Tools
/// map each reason onto an exit status (the README's table).
public struct StorageError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What kind of failure it is: the reasons Azure Storage answers with.
    public enum Reason: String, Sendable, CaseIterable {
        /// No such account, table, entity, container or blob (404).
        case notFound
        /// It exists already, or the request conflicts with the current state (409).
        case alreadyExists
        /// An `If-Match` ETag or another precondition does not hold (412).
        case preconditionFailed
        /// A conditional read whose resource has not changed (304).
        case notModified
        /// A byte range outside the blob (416).
        case invalidRange
        /// The request itself is invalid: a key, a value, a size or a batch over a limit (400).
        case invalidInput
        /// Valid, but a feature the service does not offer, such as a function in a `$filter` (501,
        /// Azure's code NotImplemented).
        case unsupportedByService
        /// The store is busy or throttling: worth retrying later (503, 429; a locked SQLite file).
        case busy
        /// The credentials or permissions do not allow the request (403; a read-only file).
        case unauthorized
        /// What is there is not a storage account, is damaged, or was made by a newer version.
        case corrupt
        /// The store failed part-way (disk, or a server's internal error).
        case unavailable
        /// Nothing answered at the account's endpoint, after every try (refused, reset, timed out).
        case unreachable
        /// A remote account refused our credentials: a wrong key, an expired or narrow SAS, or an
        /// account that is not there (401, 403).
        case refused
    }

    /// What kind of failure it is.
    public let reason: Reason
    /// Which account, for messages: a path or an account name, never a secret.
    public let account: String
    /// What happened, in words, naming what it happened to.
    public let message: String
    /// Azure's error code when one is known (`TableNotFound`, `UpdateConditionNotSatisfied`, …).
    public let code: String?
    /// In a transaction group that failed on one of its operations (a batch of a write), the 0-based
    /// index of that operation within the group; nil otherwise.
    public package(set) var operationIndex: Int?
    /// What a tool adds after the message: the options that would help. The message itself names no
    /// command-line option.
    package var toolAdvice = ""

    package init(_ reason: Reason, account: String, _ message: String, code: String? = nil) {
        self.reason = reason
        self.account = account
        self.message = message
        self.code = code
    }

    /// The same error, attributed to the operation at `index` of a transaction.
    package func at(operation index: Int) -> StorageError {
        var copy = self
        copy.operationIndex = index
        return copy
    }

    /// The account and the message.
    public var description: String { account.isEmpty ? message : "\(account): \(message)" }
}
