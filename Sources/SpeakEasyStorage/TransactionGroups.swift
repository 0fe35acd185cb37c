/// Azure's limits on one entity-group transaction, and a batch cut to fit them.
///
/// A transaction holds at most 100 entities, all of one partition, in a request under 4 MiB. A
/// backend is free to commit more at once (the local account commits a whole write call), but no
/// caller may rely on more than this being atomic.
package enum TransactionGroups {
    package static let maximumEntities = 100
    /// The request limit less room for the multipart framing of 100 operations.
    package static let maximumBytes = 4 * 1024 * 1024 - 256 * 1024

    /// The entities in groups that each fit one transaction, partitions in order of first appearance
    /// and entities in their order within each.
    package static func split(_ entities: [EncodedEntity]) -> [[EncodedEntity]] {
        var byPartition: [String: [EncodedEntity]] = [:]
        var order: [String] = []
        for entity in entities {
            if byPartition[entity.partitionKey] == nil { order.append(entity.partitionKey) }
            byPartition[entity.partitionKey, default: []].append(entity)
        }
        var groups: [[EncodedEntity]] = []
        for partition in order {
            var group: [EncodedEntity] = []
            var bytes = 0
            for entity in byPartition[partition]! {
                let size = entity.properties.count + entity.partitionKey.utf8.count + entity.rowKey.utf8.count
                if !group.isEmpty, group.count == maximumEntities || bytes + size > maximumBytes {
                    groups.append(group)
                    group = []
                    bytes = 0
                }
                group.append(entity)
                bytes += size
            }
            if !group.isEmpty { groups.append(group) }
        }
        return groups
    }
}
