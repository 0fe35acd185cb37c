package import SpeakEasyModel

/// Whether an entity matches a filter, by Azure's rules:
/// - a constant compares only with a value of its own Edm type: across types `ne` holds and every other
///   operator fails (a Double property never equals `5`, only `5.0`);
/// - a missing property fails every comparison, `ne` included (Azure stores no nulls);
/// - strings compare ordinally by UTF-8 bytes (the order of keys in a table), DateTimes by tick,
///   Booleans with false before true, Guids by their bytes, Binary bytewise; NaN equals nothing.
extension EntityFilter {
    package func matches(_ entity: Entity) -> Bool {
        switch self {
        case .constant(let value): return value
        case .property(let name): return Self.value(of: name, in: entity) == .boolean(true)
        case .not(let inner): return !inner.matches(entity)
        case .and(let left, let right): return left.matches(entity) && right.matches(entity)
        case .or(let left, let right): return left.matches(entity) || right.matches(entity)
        case .comparison(let name, let op, let constant):
            guard let value = Self.value(of: name, in: entity) else { return false }
            guard let order = Self.compare(value, constant) else { return op == .ne }
            switch op {
            case .eq: return order == 0
            case .ne: return order != 0
            case .gt: return order > 0
            case .ge: return order >= 0
            case .lt: return order < 0
            case .le: return order <= 0
            }
        }
    }

    /// The keys and Timestamp by their names, else the property.
    private static func value(of name: String, in entity: Entity) -> EdmValue? {
        switch name {
        case "PartitionKey": .string(entity.partitionKey)
        case "RowKey": .string(entity.rowKey)
        case "Timestamp": entity.timestamp.map(EdmValue.dateTime)
        default: entity[name]
        }
    }

    /// -1, 0 or 1 for values of one type; nil across types, or when a NaN makes them unordered
    /// (then only `ne` holds, as for IEEE comparisons).
    private static func compare(_ a: EdmValue, _ b: EdmValue) -> Int? {
        func order<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : x == y ? 0 : 1 }
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return x.utf8.elementsEqual(y.utf8) ? 0 : x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
        case (.int32(let x), .int32(let y)): return order(x, y)
        case (.int64(let x), .int64(let y)): return order(x, y)
        case (.double(let x), .double(let y)): return x.isNaN || y.isNaN ? nil : order(x, y)
        case (.boolean(let x), .boolean(let y)): return order(x ? 1 : 0, y ? 1 : 0)
        case (.dateTime(let x), .dateTime(let y)): return order(x.ticks, y.ticks)
        case (.guid(let x), .guid(let y)): return order(x, y)
        case (.binary(let x), .binary(let y)): return x == y ? 0 : x.lexicographicallyPrecedes(y) ? -1 : 1
        default: return nil
        }
    }
}
