/// What a verified SAS lets a request do: the server asks it, operation by operation, and for a
/// table SAS entity by entity.
package struct SASGrant: Sendable, Equatable {
    package let signature: SharedAccessSignature

    package init(_ signature: SharedAccessSignature) { self.signature = signature }

    /// The keys a table SAS reaches; nil for other kinds or a table SAS without a range. A query
    /// must be limited to it (Azure returns only the entities within).
    package var keyRange: TableKeyRange? {
        guard signature.kind == .table else { return nil }
        let range = TableKeyRange(
            startPartitionKey: signature.startPartitionKey,
            startRowKey: signature.startRowKey,
            endPartitionKey: signature.endPartitionKey,
            endRowKey: signature.endRowKey
        )
        return range.isUnbounded ? nil : range
    }

    /// Whether the operation is allowed, or the error Azure answers with: a service the account SAS
    /// does not list (AuthorizationServiceMismatch), a resource type it does not list
    /// (AuthorizationResourceTypeMismatch), a missing permission letter
    /// (AuthorizationPermissionMismatch), an operation no service SAS allows (AuthorizationFailure).
    package func authorize(_ operation: SASOperation) throws(AuthorizationError) {
        let granted = Set(signature.permissions)
        let required: [Set<Character>]
        switch signature.kind {
        case .account:
            guard Set(signature.services ?? "").contains(operation.service.accountLetter) else {
                throw AuthorizationError(.authorizationServiceMismatch)
            }
            guard !Set(signature.resourceTypes ?? "").isDisjoint(with: operation.accountResourceTypes) else {
                throw AuthorizationError(.authorizationResourceTypeMismatch)
            }
            required = operation.accountPermissions
        case .table, .blob:
            guard operation.service == (signature.kind == .table ? .table : .blob) else {
                throw AuthorizationError(.authorizationServiceMismatch)
            }
            guard let permissions = operation.servicePermissions else {
                throw AuthorizationError(.authorizationFailure)
            }
            required = permissions
        case nil:
            throw AuthorizationError(.authorizationFailure)
        }
        for requirement in required where granted.isDisjoint(with: requirement) {
            throw AuthorizationError(.authorizationPermissionMismatch)
        }
    }

    /// Whether a table SAS reaches an entity (always, for other kinds); AuthorizationFailure if not.
    package func authorizeEntity(partitionKey: String, rowKey: String) throws(AuthorizationError) {
        guard let range = keyRange, !range.contains(partitionKey: partitionKey, rowKey: rowKey) else { return }
        throw AuthorizationError(.authorizationFailure, detail: "The entity's keys are outside the SAS's key range.")
    }
}

extension StorageService {
    /// The letter of the service in an account SAS's `ss`.
    package var accountLetter: Character {
        switch self {
        case .blob: "b"
        case .table: "t"
        }
    }
}
