internal import SpeakEasyModel

/// Why a `$filter` text is not a filter Azure Table storage evaluates, and where.
///
/// Two kinds, because Azure answers them differently: a text that is not a filter at all is
/// 400 InvalidInput, while valid OData that the table service does not implement (functions such as
/// `startswith(…)`, arithmetic such as `add`) is 501 NotImplemented. A server answers with the kind,
/// the message and the offset; a client reports them before sending anything.
package struct FilterSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Kind: Hashable, Sendable {
        /// Not a filter: bad syntax, a malformed literal, or over one of the parser's limits (400).
        case invalidInput
        /// Valid OData that Azure Table storage does not offer: functions, arithmetic (501).
        case unsupportedOperation
    }

    package let kind: Kind
    /// Where the offending text starts, in UTF-8 bytes from the start of the filter (the character
    /// offset for ASCII text, which filters nearly always are). The end of the text for a filter
    /// that stops too early.
    package let offset: Int
    /// What is wrong, without the position; literal errors keep Azure's wording
    /// ("Unrecognized 'Edm.Int32' literal '2147483648'").
    package let message: String

    package init(_ kind: Kind = .invalidInput, at offset: Int, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    package var description: String { "\(message) (at offset \(offset) of the $filter)" }
}

extension StorageError {
    /// The answer to a filter that does not parse: 400 InvalidInput, or 501 NotImplemented for what
    /// Azure does not implement. The message keeps the offset so a client can point at the problem.
    package init(_ error: FilterSyntaxError, account: String) {
        // The reasons' own Azure codes are the ones wanted: InvalidInput, NotImplemented.
        self.init(
            error.kind == .invalidInput ? .invalidInput : .unsupportedByService,
            account: account,
            error.description
        )
    }
}
