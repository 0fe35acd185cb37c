package import SpeakEasyModel

/// The order `--sort PROPERTY` puts entities in: by that property's value (DateTime by ticks, numbers
/// numerically, strings by their UTF-8 bytes), entities without it last, ties in input order.
package enum EntityOrdering {
    package static func sorted(_ entities: [Entity], by name: String) -> [Entity] {
        let keyed = entities.enumerated().map { (index: $0.offset, key: sortKey($0.element, name), entity: $0.element) }
        return keyed.sorted { lhs, rhs in
            switch (lhs.key, rhs.key) {
            case (nil, nil): return lhs.index < rhs.index
            case (nil, _): return false
            case (_, nil): return true
            case (let a?, let b?):
                if let order = compare(a, b), order != 0 { return order < 0 }
                return lhs.index < rhs.index
            }
        }.map(\.entity)
    }

    private static func sortKey(_ entity: Entity, _ name: String) -> EdmValue? {
        switch name {
        case "PartitionKey": .string(entity.partitionKey)
        case "RowKey": .string(entity.rowKey)
        case "Timestamp": entity.timestamp.map { .dateTime($0) }
        default: entity[name]
        }
    }

    /// -1, 0 or 1; values of different types order by type name so the sort stays total.
    private static func compare(_ a: EdmValue, _ b: EdmValue) -> Int? {
        func order<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : x == y ? 0 : 1 }
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : x.utf8.elementsEqual(y.utf8) ? 0 : 1
        case (.int32(let x), .int32(let y)): return order(x, y)
        case (.int64(let x), .int64(let y)): return order(x, y)
        case (.double(let x), .double(let y)):
            return x.isNaN || y.isNaN ? order(x.isNaN ? 1 : 0, y.isNaN ? 1 : 0) : order(x, y)
        case (.boolean(let x), .boolean(let y)): return order(x ? 1 : 0, y ? 1 : 0)
        case (.dateTime(let x), .dateTime(let y)): return order(x.ticks, y.ticks)
        case (.guid(let x), .guid(let y)): return order(x, y)
        case (.binary(let x), .binary(let y)): return x.lexicographicallyPrecedes(y) ? -1 : x == y ? 0 : 1
        default: return order(a.type.rawValue, b.type.rawValue)
        }
    }
}
