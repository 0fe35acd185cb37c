package import SpeakEasyModel
package import SpeakEasyStorage

/// One operation of an entity group transaction, as read from its part of a `$batch` body (or
/// built by a client to write one).
package struct TableBatchOperation: Sendable, Equatable {
    /// What the operation does, from its method, its URL and whether it has `If-Match`.
    package enum Action: Sendable, Equatable {
        /// `POST /table`.
        case insert
        /// `PUT` with `If-Match`: replace an existing entity.
        case update(ifMatch: String)
        /// `MERGE`/`PATCH` with `If-Match`.
        case merge(ifMatch: String)
        /// `PUT` without `If-Match`.
        case insertOrReplace
        /// `MERGE`/`PATCH` without `If-Match`.
        case insertOrMerge
        /// `DELETE`; Azure requires `If-Match` (a batch without one is read as `*`, as Azurite does).
        case delete(ifMatch: String)
        /// `GET` of one entity, alone in a batch, outside any changeset.
        case retrieve
    }

    package var action: Action
    package var table: String
    package var partitionKey: String
    package var rowKey: String
    /// The entity to write (insert, update, merge and the upserts); nil for delete and retrieve.
    package var entity: Entity?
    /// The entity's JSON body when a client has it encoded already (``TableEntityBody/writeJSON(_:)-``);
    /// sent instead of encoding `entity`.
    package var body: [UInt8]?
    /// `Prefer: return-no-content` (the insert's answer is then 204 instead of 201 and a body).
    package var returnNoContent: Bool
    /// The part's `Content-ID`, echoed in its response when given.
    package var contentID: String?

    package init(
        _ action: Action,
        table: String,
        partitionKey: String,
        rowKey: String,
        entity: Entity? = nil,
        returnNoContent: Bool = false,
        contentID: String? = nil
    ) {
        self.action = action
        self.table = table
        self.partitionKey = partitionKey
        self.rowKey = rowKey
        self.entity = entity
        self.returnNoContent = returnNoContent
        self.contentID = contentID
    }

    /// The HTTP method a client sends it with (MERGE, which every Azure version takes).
    package var method: String {
        switch action {
        case .insert: "POST"
        case .update, .insertOrReplace: "PUT"
        case .merge, .insertOrMerge: "MERGE"
        case .delete: "DELETE"
        case .retrieve: "GET"
        }
    }

    /// `If-Match` as sent, if any.
    package var ifMatch: String? {
        switch action {
        case .update(let tag), .merge(let tag), .delete(let tag): tag
        default: nil
        }
    }

    /// The resource its URL names: the table for an insert, else the entity.
    package var resource: TableResourcePath {
        action == .insert ? .entities(table: table) : .entity(table: table, partitionKey: partitionKey, rowKey: rowKey)
    }
}

/// Between a batch operation's action and the storage seam's operation kind, both ways: the client
/// sends the seam's operations, the server hands what it read to the seam.
extension TableBatchOperation.Action {
    package init(_ kind: EntityOperation.Kind) {
        switch kind {
        case .insert: self = .insert
        case .insertOrReplace: self = .insertOrReplace
        case .insertOrMerge: self = .insertOrMerge
        case .update(let tag): self = .update(ifMatch: tag)
        case .merge(let tag): self = .merge(ifMatch: tag)
        case .delete(let tag): self = .delete(ifMatch: tag)
        }
    }

    /// The seam's kind; nil for a retrieve, which writes nothing.
    package var operationKind: EntityOperation.Kind? {
        switch self {
        case .insert: .insert
        case .update(let tag): .update(ifMatch: tag)
        case .merge(let tag): .merge(ifMatch: tag)
        case .insertOrReplace: .insertOrReplace
        case .insertOrMerge: .insertOrMerge
        case .delete(let tag): .delete(ifMatch: tag)
        case .retrieve: nil
        }
    }
}
