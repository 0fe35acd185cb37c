import SpeakEasyCore
import SpeakEasyModel

/// The property names `--columns` and `--sort` ask for, checked against the entities read: a name
/// that no entity has is an error that lists the names there are, not a blank column or an order
/// that silently keeps the input's.
///
/// Costs nothing once every name has been seen, which for names that exist is within the first
/// entities of their partition.
struct WantedProperties {
    private var missing: [(option: String, name: String)]
    private var seen: Set<String> = []
    private var entities = 0

    /// The keys and Timestamp are always there to choose.
    private static let system: Set<String> = ["PartitionKey", "RowKey", "Timestamp"]

    init(columns: [String]?, sortBy: String?) {
        missing = (columns ?? []).map { ("--columns", $0) } + (sortBy.map { [("--sort", $0)] } ?? [])
        missing.removeAll { Self.system.contains($0.name) }
    }

    mutating func note(_ entity: Entity) {
        guard !missing.isEmpty else { return }
        entities += 1
        for property in entity.properties { seen.insert(property.name) }
        missing.removeAll { seen.contains($0.name) }
    }

    /// Throws for the first name no entity had; no entity at all proves nothing.
    func check() throws(NameNotFoundError) {
        guard entities > 0, let first = missing.first else { return }
        throw NameNotFoundError(
            option: first.option,
            name: first.name,
            what: "property of the \(entities) entities read",
            known: (seen.union(Self.system)).sorted(),
            kind: .usage
        )
    }
}
