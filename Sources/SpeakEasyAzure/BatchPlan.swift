package import SpeakEasyStorage

/// Entities cut into entity group transactions as Azure takes them: one partition each, at most 100
/// operations, and a body under 4 MiB.
///
/// Within a partition the entities keep their order; partitions come in the order they first appear.
/// A batch is sent whole or not at all, so a write cut this way can be repeated batch by batch.
package enum BatchPlan {
    package static let maximumOperations = 100
    /// Azure's 4 MiB, less room for the framing this estimate leaves out.
    package static let maximumBodyBytes = (4 << 20) - (64 << 10)
    /// The multipart framing and request line of one operation, and its JSON's keys, at most: a
    /// part's headers and `POST <endpoint>/<table> HTTP/1.1` (an endpoint of up to 400 bytes).
    static let framingBytes = 1024

    /// The batches, each a run of indexes into `entities`.
    package static func batches(_ entities: [EncodedEntity]) -> [[Int]] {
        var partitions: [String: Int] = [:]
        var groups: [[Int]] = []
        for index in entities.indices {
            let key = entities[index].partitionKey
            if let group = partitions[key] {
                groups[group].append(index)
            } else {
                partitions[key] = groups.count
                groups.append([index])
            }
        }
        var batches: [[Int]] = []
        for group in groups {
            var batch: [Int] = []
            var bytes = 0
            for index in group {
                let size = cost(entities[index])
                if !batch.isEmpty, batch.count == maximumOperations || bytes + size > maximumBodyBytes {
                    batches.append(batch)
                    batch = []
                    bytes = 0
                }
                batch.append(index)
                bytes += size
            }
            if !batch.isEmpty { batches.append(batch) }
        }
        return batches
    }

    /// What one entity adds to a batch's body, at most: its properties as stored (the wire's form is
    /// no longer: DateTimes lose trailing zeros), its keys twice (JSON escaping at most doubles
    /// them, `\u` escapes aside, which keys rarely need), and the framing.
    static func cost(_ entity: EncodedEntity) -> Int {
        entity.properties.count + 6 * (entity.partitionKey.utf8.count + entity.rowKey.utf8.count) + framingBytes
    }
}
