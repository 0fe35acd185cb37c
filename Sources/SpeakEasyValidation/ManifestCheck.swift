import SpeakEasyModel
import SpeakEasyStorage

/// The manifest rules: what `seed` recorded still matches the table.
enum ManifestCheck {
    /// Where manifest findings point: the manifest entity.
    static let location = FindingLocation(
        .table(SeedManifest.table),
        partitionKey: DataContract.table,
        rowKey: SeedManifest.rowKey
    )

    /// Compares counts per partition and, when computed, the content hash of the whole table.
    static func compare(_ manifest: SeedManifest, counts: [String: Int], hash: ContentHash?, into log: inout FindingLog)
    {
        let pairs = [
            (DataContract.speakersPartition, manifest.speakerEntities),
            (DataContract.eventsPartition, manifest.eventEntities),
        ]
        for (partition, recorded) in pairs {
            let actual = counts[partition] ?? 0
            if actual != recorded {
                log.add(
                    .manifestCounts,
                    "partition '\(partition)' holds \(actual) entities; seed recorded \(recorded)",
                    at: location
                )
            }
        }
        // A manifest from before the canonical form holds a hash that cannot be recomputed: counts only.
        if let hash, ContentHash.isComparable(manifest.contentHash), hash.description != manifest.contentHash {
            log.add(
                .manifestHash,
                "the table's content hash is \(hash); seed recorded \(manifest.contentHash): entities changed since it ran",
                at: location
            )
        }
    }
}
