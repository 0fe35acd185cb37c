import Foundation
import SpeakEasyCore
import SpeakEasyModel
import SpeakEasySQLite
import SpeakEasyStorage

/// `$filter` evaluated against a reference interpreter, on random expressions over random entities.
///
/// The fuzzer's bytes choose entities (keys and typed properties from small pools, so that values
/// meet) and an expression tree, which is written as `$filter` text: the literals in each of their
/// forms, the constant on either side, parentheses only where precedence needs them or at random.
/// The reference below evaluates the tree itself by Azure's rules, written here apart from the
/// evaluator. Then, on the same entities:
/// - the text parses, and `EntityFilter.matches` agrees with the reference on every entity;
/// - so does the filter written back as text (what the Azure client sends);
/// - the SQLite account, queried in pages of 1–4 through its continuations, returns exactly the
///   entities the reference picks, in key order: its key conditions run in SQL and a
///   `PartitionKey eq` seeks, so it can drop or repeat what the evaluator alone would not;
/// - for a filter on the keys alone, so does the query that copies stored entities (with its
///   read-ahead thread).
enum FilterEvaluationTarget {
    static func run(_ data: [UInt8]) {
        var choices = Choices(data)
        let types = FilterSamples.schema(&choices)
        let expression = FilterExpression.random(&choices, types: types, depth: 0)
        let text = expression.text(&choices)
        let filter: EntityFilter
        do { filter = try EntityFilter(parsing: text) } catch {
            fatalError("'\(text)' is a valid filter, but it was refused: \(error)")
        }
        let limit = 1 + Int(choices.byte() % 4)
        let partition = choices.chance(2) ? choices.pick(FilterSamples.keys) : nil
        let entities = FilterSamples.entities(&choices, types: types)

        let stored = FilterStore.shared.replaceEntities(with: entities)
        guard stored.count == entities.count else {
            fatalError("wrote \(entities.count) entities, read back \(stored.count)")
        }
        let expected = stored.filter { expression.holds(for: $0) }
        for entity in stored {
            let want = expression.holds(for: entity)
            guard filter.matches(entity) == want else {
                fatalError(
                    "'\(text)' on \(FilterSamples.describe(entity)): matches says \(!want), the reference \(want)"
                )
            }
        }
        guard let again = try? EntityFilter(parsing: filter.odataText) else {
            fatalError("'\(text)' written back as '\(filter.odataText)' does not parse")
        }
        for entity in stored where again.matches(entity) != filter.matches(entity) {
            fatalError(
                "'\(text)' written back as '\(filter.odataText)' decides \(FilterSamples.describe(entity)) otherwise"
            )
        }

        let query = EntityQuery(partition: partition, filter: filter)
        let want = expected.filter { partition == nil || $0.partitionKey == partition }.map(\.keys)
        let got = FilterStore.shared.keys(query, limit: limit, stored: false)
        guard got == want else {
            fatalError(
                "'\(text)'\(partition.map { " in partition '\($0)'" } ?? ""), pages of \(limit): the store gave \(got), the reference \(want)"
            )
        }
        if filter.isOnKeys {
            let copied = FilterStore.shared.keys(query, limit: limit, stored: true)
            guard copied == want else {
                fatalError("'\(text)', stored query in pages of \(limit): \(copied), the reference \(want)")
            }
        }
    }
}

/// The fuzzer's bytes as a series of choices, one byte each (0 once they run out), so that a
/// mutated byte changes one choice.
struct Choices {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    mutating func pick<T>(_ options: [T]) -> T { options[Int(byte()) % options.count] }

    /// True `eighths` times in eight.
    mutating func chance(_ eighths: UInt8) -> Bool { byte() % 8 < eighths }
}

/// A value and every literal that writes it in a filter.
struct FilterSample {
    let value: EdmValue
    let literals: [String]
}

/// Pools of values, few enough that entities and filters meet on them, and the entities built from them.
enum FilterSamples {
    /// Keys are strings with quotes, spaces and characters of 2 and 4 bytes, whose UTF-8 order differs
    /// from their UTF-16 order; the empty string is a key too.
    static let keys = ["", "a", "b", "a b", "O'Brien", "é", "\u{FFFD}", "\u{1F600}", "Z"]
    static let propertyNames = ["A", "B", "Flag", "Ωmega"]

    static let samples: [EdmType: [FilterSample]] = [
        .string: keys.map {
            FilterSample(
                value: .string($0),
                literals: [
                    "'" + $0.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
                ]
            )
        },
        .int32: [Int32.min, -1, 0, 5, Int32.max].map { FilterSample(value: .int32($0), literals: [String($0)]) },
        .int64: [Int64.min, -1, 0, 5, 1 << 40, Int64.max].map { FilterSample(value: .int64($0), literals: ["\($0)L"]) },
        .double: [
            FilterSample(value: .double(-1.5), literals: ["-1.5", "-15E-1", "-1.50"]),
            FilterSample(value: .double(0), literals: ["0.0", "0e0"]),
            FilterSample(value: .double(-0.0), literals: ["-0.0"]),
            FilterSample(value: .double(5), literals: ["5.0", "5E0", "0.5e+1"]),
            FilterSample(value: .double(1e10), literals: ["1E+10", "10000000000.0"]),
            FilterSample(value: .double(.nan), literals: ["NaN"]),
            FilterSample(value: .double(.infinity), literals: ["INF"]),
            FilterSample(value: .double(-.infinity), literals: ["-INF"]),
        ],
        .boolean: [false, true].map { FilterSample(value: .boolean($0), literals: [String($0)]) },
        .dateTime: [
            dateTime(
                "2000-01-01T00:00:00.0000000Z",
                ["2000-01-01T00:00:00Z", "2000-01-01T00:00:00.0000000Z", "2000-01-01T00:00:00.0Z"]
            ),
            dateTime("2024-05-01T10:00:00.1234567Z", ["2024-05-01T10:00:00.1234567Z"]),
            dateTime(
                "2024-05-01T10:00:00.5000000Z",
                ["2024-05-01T10:00:00.5Z", "2024-05-01T10:00:00.50Z", "2024-05-01T10:00:00.5000000Z"]
            ),
            dateTime("2024-05-01T10:00:00.5000001Z", ["2024-05-01T10:00:00.5000001Z"]),
            dateTime("2100-12-31T23:59:59.9999999Z", ["2100-12-31T23:59:59.9999999Z"]),
        ],
        .guid: [
            "00000000-0000-0000-0000-000000000000", "7fffffff-ffff-ffff-ffff-ffffffffffff",
            "c9da6455-213d-42c9-9a79-3e9149a57833",
            "c9da6455-213d-42c9-9a79-3e9149a57834", "ffffffff-ffff-ffff-0000-000000000000",
        ].map { text in
            FilterSample(value: .guid(EdmGuid(text)!), literals: ["guid'\(text)'", "guid'\(text.uppercased())'"])
        },
        .binary: [[0], [0, 1], [1], [0xFF], [0x0A, 0xFF]].map { (bytes: [UInt8]) in
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            return FilterSample(value: .binary(bytes), literals: ["X'\(hex)'", "binary'\(hex.uppercased())'"])
        },
    ]
    static let types = EdmType.allCases.filter { samples[$0] != nil }

    private static func dateTime(_ canonical: String, _ texts: [String]) -> FilterSample {
        FilterSample(value: .dateTime(try! EdmDateTime(parsing: canonical)), literals: texts.map { "datetime'\($0)'" })
    }

    /// The type each property has in this input, mostly: the keys are strings, Timestamp a DateTime.
    static func schema(_ choices: inout Choices) -> [String: EdmType] {
        var types: [String: EdmType] = ["PartitionKey": .string, "RowKey": .string, "Timestamp": .dateTime]
        for name in propertyNames { types[name] = choices.pick(Self.types) }
        return types
    }

    /// Up to 8 entities of distinct keys. A property has its type most of the time, and now and then
    /// another: Azure's tables have no schema.
    static func entities(_ choices: inout Choices, types typeOf: [String: EdmType]) -> [Entity] {
        var entities: [Entity] = []
        var seen = Set<[String]>()
        for _ in 0..<(1 + choices.byte() % 8) {
            var entity = Entity(partitionKey: choices.pick(keys), rowKey: choices.pick(keys))
            for name in propertyNames where choices.chance(5) {
                let type = choices.chance(6) ? typeOf[name]! : choices.pick(Self.types)
                entity.properties.append(Property(name, choices.pick(samples[type]!).value))
            }
            if seen.insert(entity.keys).inserted { entities.append(entity) }
        }
        return entities
    }

    static func describe(_ entity: Entity) -> String {
        "(\(entity.partitionKey)|\(entity.rowKey)|\(entity.timestamp.map(String.init(describing:)) ?? "-")) "
            + entity.properties.map { "\($0.name):\($0.value.type.rawValue)=\($0.value.description)" }.joined(
                separator: " "
            )
    }
}

extension Entity {
    var keys: [String] { [partitionKey, rowKey] }
}

/// A filter as the generator builds it, and the reference's reading of it.
indirect enum FilterExpression {
    /// `property op literal`, or written the other way round (`literal op property`) when `constantFirst`.
    case comparison(property: String, EntityFilter.ComparisonOperator, FilterSample, literal: Int, constantFirst: Bool)
    case bare(String)
    case constant(Bool)
    case not(FilterExpression)
    case and(FilterExpression, FilterExpression)
    case or(FilterExpression, FilterExpression)

    static let properties = FilterSamples.propertyNames + ["PartitionKey", "RowKey", "Timestamp", "Missing"]

    /// A tree of at most 4 levels; a literal mostly of the type its property has in `types`.
    static func random(_ choices: inout Choices, types: [String: EdmType], depth: Int) -> FilterExpression {
        func child() -> FilterExpression { random(&choices, types: types, depth: depth + 1) }
        switch depth >= 4 ? 0 : choices.byte() % 8 {
        case 5: return .not(child())
        case 6: return .and(child(), child())
        case 7: return .or(child(), child())
        default:
            switch choices.byte() % 16 {
            case 0: return .constant(choices.chance(4))
            case 1: return .bare(choices.pick(properties))
            default:
                let property = choices.pick(properties)
                let type = choices.chance(6) ? types[property] ?? .string : choices.pick(FilterSamples.types)
                let sample = choices.pick(FilterSamples.samples[type]!)
                return .comparison(
                    property: property,
                    choices.pick(EntityFilter.ComparisonOperator.allCases),
                    sample,
                    literal: Int(choices.byte()) % sample.literals.count,
                    constantFirst: choices.chance(2)
                )
            }
        }
    }

    // MARK: Text

    /// The filter's text: parentheses where precedence needs them (`not` before `and` before `or`,
    /// both grouping from the left) and now and then where it does not; spaces or tabs between words.
    func text(_ choices: inout Choices) -> String {
        text(&choices, context: .or)
    }

    private enum Level: Int, Comparable {
        case or, and, unary
        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    private func text(_ choices: inout Choices, context: Level) -> String {
        let space = choices.pick([" ", " ", " ", "  ", "\t"])
        let (body, level): (String, Level)
        switch self {
        case .comparison(let property, let op, let sample, let literal, let constantFirst):
            let parts =
                constantFirst
                ? [sample.literals[literal], op.rawValue, property] : [property, op.rawValue, sample.literals[literal]]
            (body, level) = (parts.joined(separator: space), .unary)
        case .bare(let property): (body, level) = (property, .unary)
        case .constant(let value): (body, level) = (String(value), .unary)
        case .not(let inner): (body, level) = ("not" + space + inner.text(&choices, context: .unary), .unary)
        case .and(let left, let right):
            (body, level) = (
                left.text(&choices, context: .and) + space + "and" + space + right.text(&choices, context: .unary), .and
            )
        case .or(let left, let right):
            (body, level) = (
                left.text(&choices, context: .or) + space + "or" + space + right.text(&choices, context: .and), .or
            )
        }
        return level < context || choices.chance(1) ? "(" + body + ")" : body
    }

    // MARK: The reference

    /// Azure's rules, as its documentation ("Querying tables and entities") and issues tested against
    /// Azure record them:
    /// - a missing property fails every comparison, `ne` too: Azure stores no nulls
    ///   (azure-storage-net#550; Azurite#2342, where a maintainer tried it on Azure);
    /// - a literal of another type than the value: `ne` holds, nothing else (a Double property is
    ///   never `gt 5`, only `gt 5.0`: azure-storage-net#122; Azurite#2342);
    /// - strings in the order of their UTF-8 bytes, DateTimes by instant, Guids as their lower-case
    ///   text, Binary bytewise, false before true; Doubles as IEEE compares them (NaN: only `ne`);
    /// - a property on its own holds when it is the Boolean true.
    func holds(for entity: Entity) -> Bool {
        switch self {
        case .constant(let value): return value
        case .bare(let property): return Self.value(property, of: entity) == .boolean(true)
        case .not(let inner): return !inner.holds(for: entity)
        case .and(let left, let right): return left.holds(for: entity) && right.holds(for: entity)
        case .or(let left, let right): return left.holds(for: entity) || right.holds(for: entity)
        case .comparison(let property, let op, let sample, _, let constantFirst):
            guard let value = Self.value(property, of: entity) else { return false }
            return constantFirst ? Self.compare(sample.value, op, value) : Self.compare(value, op, sample.value)
        }
    }

    private static func value(_ property: String, of entity: Entity) -> EdmValue? {
        switch property {
        case "PartitionKey": .string(entity.partitionKey)
        case "RowKey": .string(entity.rowKey)
        case "Timestamp": entity.timestamp.map { .dateTime($0) }
        default: entity.properties.first { $0.name == property }?.value
        }
    }

    /// `a op b`, for values of any types.
    private static func compare(_ a: EdmValue, _ op: EntityFilter.ComparisonOperator, _ b: EdmValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)):
            switch op {
            case .eq: return x == y
            case .ne: return x != y
            case .gt: return x > y
            case .ge: return x >= y
            case .lt: return x < y
            case .le: return x <= y
            }
        case (.string(let x), .string(let y)): return apply(op, bytewise(Array(x.utf8), Array(y.utf8)))
        case (.int32(let x), .int32(let y)): return apply(op, x == y ? 0 : x < y ? -1 : 1)
        case (.int64(let x), .int64(let y)): return apply(op, x == y ? 0 : x < y ? -1 : 1)
        case (.boolean(let x), .boolean(let y)): return apply(op, (x ? 1 : 0) - (y ? 1 : 0))
        case (.dateTime(let x), .dateTime(let y)): return apply(op, x.ticks == y.ticks ? 0 : x.ticks < y.ticks ? -1 : 1)
        case (.guid(let x), .guid(let y)):
            return apply(op, bytewise(Array(x.description.lowercased().utf8), Array(y.description.lowercased().utf8)))
        case (.binary(let x), .binary(let y)): return apply(op, bytewise(x, y))
        default: return op == .ne
        }
    }

    /// -1, 0 or 1: the first byte that differs decides, else the shorter comes first.
    private static func bytewise(_ x: [UInt8], _ y: [UInt8]) -> Int {
        for index in 0..<min(x.count, y.count) where x[index] != y[index] { return x[index] < y[index] ? -1 : 1 }
        return x.count == y.count ? 0 : x.count < y.count ? -1 : 1
    }

    private static func apply(_ op: EntityFilter.ComparisonOperator, _ order: Int) -> Bool {
        switch op {
        case .eq: order == 0
        case .ne: order != 0
        case .gt: order > 0
        case .ge: order >= 0
        case .lt: order < 0
        case .le: order <= 0
        }
    }
}

/// One SQLite account for the process, in the temporary directory, removed at exit; each input
/// replaces the entities of its one table.
final class FilterStore: @unchecked Sendable {
    static let shared = FilterStore()
    private static let path = NSTemporaryDirectory() + "speakeasy-fuzz-filter-\(getpid()).sqlite"
    private static let table = "fuzz"
    private let account: SQLiteStorageAccount

    private init() {
        for suffix in ["", "-wal", "-shm"] { unlink(Self.path + suffix) }
        do {
            account = try SQLiteStorageAccount(
                path: Self.path,
                accountName: "speakeasy",
                blobEndpoint: "http://127.0.0.1:10000/speakeasy/"
            )
        } catch { fatalError("cannot create the store at \(Self.path): \(error)") }
        atexit { for suffix in ["", "-wal", "-shm"] { unlink(FilterStore.path + suffix) } }
        let account = self.account
        Self.blocking { try await account.createTableIfNotExists(Self.table) }
    }

    /// Writes the entities in place of the table's, and returns them as stored (with Timestamps), in key order.
    func replaceEntities(with entities: [Entity]) -> [Entity] {
        let account = self.account
        return Self.blocking {
            try await account.deleteAllEntities(table: Self.table)
            try await account.write(entities.map(EncodedEntity.init), table: Self.table, mode: .insert)
            return try await account.query(table: Self.table, .all, from: nil, limit: 1000).entities
        }
    }

    /// The keys a query returns, page after page of `limit`; `stored` uses the query that copies the
    /// stored properties (filters on keys alone).
    func keys(_ query: EntityQuery, limit: Int, stored: Bool) -> [[String]] {
        let account = self.account
        return Self.blocking {
            var keys: [[String]] = []
            var from: ContinuationToken?
            repeat {
                if stored {
                    let page = try await account.storedQuery(table: Self.table, query, from: from, limit: limit)
                    keys += page.entities.map { [$0.encoded.partitionKey, $0.encoded.rowKey] }
                    from = page.next
                } else {
                    let page = try await account.query(table: Self.table, query, from: from, limit: limit)
                    keys += page.entities.map(\.keys)
                    from = page.next
                }
                guard keys.count <= 8 else { fatalError("more than the 8 entities written: \(keys)") }
            } while from != nil
            return keys
        }
    }

    /// Runs an asynchronous call of the store to its end; a store error is a finding.
    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> T {
        switch fuzz.blocking(body) {
        case .success(let value): return value
        case .failure(let error): fatalError("the store failed: \(error)")
        }
    }
}
