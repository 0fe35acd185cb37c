package import SpeakEasyModel

/// A stored access policy: a named start, expiry and permissions that a container (or, in Azure, a
/// table) keeps, and that a SAS names with `si` instead of carrying them, so that revoking the
/// policy revokes every SAS made from it. Each field may be left to the SAS.
package struct StoredAccessPolicy: Hashable, Sendable {
    /// The signed identifier, at most 64 characters.
    package var id: String
    package var start: EdmDateTime?
    package var expiry: EdmDateTime?
    /// Permission letters, as a SAS's `sp`.
    package var permission: String?

    package init(id: String, start: EdmDateTime? = nil, expiry: EdmDateTime? = nil, permission: String? = nil) {
        self.id = id
        self.start = start
        self.expiry = expiry
        self.permission = permission
    }

    /// Azure keeps at most five policies a container or table.
    package static let maximumCount = 5
}
