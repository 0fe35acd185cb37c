/// One operation of an entity group transaction (``StorageAccount/transact(_:table:)``): Azure's
/// single-entity writes, each with the conditions Azure gives it.
package struct EntityOperation: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// Insert Entity: an existing entity is EntityAlreadyExists (409).
        case insert
        /// Insert Or Replace Entity (a PUT without If-Match).
        case insertOrReplace
        /// Insert Or Merge Entity (a MERGE without If-Match).
        case insertOrMerge
        /// Update Entity: the entity must exist (404 ResourceNotFound) with this ETag, or `*` (412
        /// UpdateConditionNotSatisfied).
        case update(ifMatch: String)
        /// Merge Entity, with the same conditions as ``update(ifMatch:)``.
        case merge(ifMatch: String)
        /// Delete Entity, with the same conditions.
        case delete(ifMatch: String)
    }

    package var kind: Kind
    /// The keys, and for writes the properties (a delete's are ignored).
    package var entity: EncodedEntity

    package init(_ kind: Kind, _ entity: EncodedEntity) {
        self.kind = kind
        self.entity = entity
    }
}

extension EntityOperation.Kind {
    /// The single-entity write a bulk write of `mode` makes of each entity.
    package init(_ mode: WriteMode) {
        switch mode {
        case .insert: self = .insert
        case .insertOrReplace: self = .insertOrReplace
        case .insertOrMerge: self = .insertOrMerge
        }
    }
}
