package import SpeakEasyModel

/// A query condition over an entity's properties: the expressions of Azure's `$filter`.
///
/// One side of every comparison is a property (or `PartitionKey`, `RowKey`, `Timestamp`) and the other
/// a typed constant; a parser puts the property on the left, turning the operator round when needed.
package indirect enum EntityFilter: Hashable, Sendable {
    case comparison(property: String, ComparisonOperator, EdmValue)
    /// A Boolean property on its own (`IsActive`).
    case property(String)
    case constant(Bool)
    case not(EntityFilter)
    case and(EntityFilter, EntityFilter)
    case or(EntityFilter, EntityFilter)

    package enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
        case eq, ne, gt, ge, lt, le

        /// The operator with its operands swapped: `5 lt X` is `X gt 5`.
        package var swapped: ComparisonOperator {
            switch self {
            case .eq, .ne: self
            case .gt: .lt
            case .ge: .le
            case .lt: .gt
            case .le: .ge
            }
        }
    }

    /// A comparison of a key (or any string property) with a string.
    package static func key(_ name: String, _ op: ComparisonOperator, _ value: String) -> EntityFilter {
        .comparison(property: name, op, .string(value))
    }

    /// The conjunction of the filters given (nil ones left out); nil when none is given.
    package static func all(of filters: [EntityFilter?]) -> EntityFilter? {
        filters.compactMap { $0 }.reduce(nil) { conjunction, filter in conjunction.map { .and($0, filter) } ?? filter }
    }

    /// Whether the filter reads nothing but PartitionKey and RowKey, so an entity's keys decide it.
    package var isOnKeys: Bool {
        switch self {
        case .comparison(let property, _, _), .property(let property):
            property == "PartitionKey" || property == "RowKey"
        case .constant: true
        case .not(let inner): inner.isOnKeys
        case .and(let left, let right), .or(let left, let right): left.isOnKeys && right.isOnKeys
        }
    }

    /// The conditions that must all hold for the filter to hold (its top-level `and`s, flattened).
    package var conjuncts: [EntityFilter] {
        if case .and(let left, let right) = self { return left.conjuncts + right.conjuncts }
        return [self]
    }
}
