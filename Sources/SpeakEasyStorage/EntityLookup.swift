package import SpeakEasyModel

/// What a read of one entity finds: the entity, or which is missing, the entity or its whole table.
/// Both misses are answers, not errors (Azure answers each with its own 404), so a server tells them
/// apart without asking for the table's existence on its own.
package enum EntityLookup: Sendable {
    case found(Entity)
    case noSuchEntity
    case noSuchTable

    /// The entity, if there is one.
    package var entity: Entity? {
        if case .found(let entity) = self { entity } else { nil }
    }
}
