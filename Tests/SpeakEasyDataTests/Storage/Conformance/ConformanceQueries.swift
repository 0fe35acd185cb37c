import SpeakEasyData
import TestSupport
import Testing

/// A filter and the row keys it must return from ``ConformanceQueries/typed``.
struct FilterCase: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let filter: EntityFilter
    let rowKeys: [String]

    init(_ description: String, _ filter: EntityFilter, _ rowKeys: [String]) {
        testDescription = description
        self.filter = filter
        self.rowKeys = rowKeys
    }
}

/// `$filter` and `$select` as Azure applies them: typed comparisons, where a constant compares only
/// with a property of its own Edm type and a missing property fails every comparison.
@Suite("Storage conformance: queries with filters and select")
struct ConformanceQueries {
    static let guid1 = EdmGuid.literal("11111111-1111-4111-8111-111111111111")
    static let guid2 = EdmGuid.literal("22222222-2222-4222-8222-222222222222")

    /// One partition of entities holding every type, some properties missing or of another type.
    static let typed = [
        Entity(
            partitionKey: "p",
            rowKey: "r1",
            properties: [
                Property("N", .int32(1)), Property("Big", .int64(10)), Property("D", .double(1.5)),
                Property("Flag", .boolean(true)),
                Property("When", .dateTime(.at("2020-01-01T00:00:00Z"))), Property("G", .guid(guid1)),
                Property("Bin", .binary([1, 2])),
                Property("Name", .string("apple")),
            ]
        ),
        Entity(
            partitionKey: "p",
            rowKey: "r2",
            properties: [
                Property("N", .int32(2)), Property("Big", .int64(20)), Property("D", .double(2.5)),
                Property("Flag", .boolean(false)),
                Property("When", .dateTime(.at("2021-06-15T12:00:00.0000001Z"))), Property("G", .guid(guid2)),
                Property("Bin", .binary([1, 3])),
                Property("Name", .string("Banana")),
            ]
        ),
        Entity(
            partitionKey: "p",
            rowKey: "r3",
            properties: [Property("N", .int32(3)), Property("D", .double(.nan)), Property("Name", .string("cherry"))]
        ),
        Entity(
            partitionKey: "p",
            rowKey: "r4",
            properties: [Property("N", .double(3.0)), Property("Name", .string("édith"))]
        ),
        Entity(partitionKey: "p", rowKey: "r5"),
    ]

    static func compare(_ property: String, _ op: EntityFilter.ComparisonOperator, _ value: EdmValue) -> EntityFilter {
        .comparison(property: property, op, value)
    }

    static let typedCases: [FilterCase] = [
        FilterCase("N eq 1: an Int32 equals an Int32", compare("N", .eq, .int32(1)), ["r1"]),
        FilterCase("N gt 1: a Double 3.0 is not greater than an Int32", compare("N", .gt, .int32(1)), ["r2", "r3"]),
        FilterCase(
            "N ne 2: ne holds across types, not for a missing property",
            compare("N", .ne, .int32(2)),
            ["r1", "r3", "r4"]
        ),
        FilterCase("N eq 3.0: a Double constant matches Doubles only", compare("N", .eq, .double(3.0)), ["r4"]),
        FilterCase("N eq 3: an Int32 constant matches Int32s only", compare("N", .eq, .int32(3)), ["r3"]),
        FilterCase("Big ge 20L: Int64", compare("Big", .ge, .int64(20)), ["r2"]),
        FilterCase("Big lt 20L: Int64", compare("Big", .lt, .int64(20)), ["r1"]),
        FilterCase("Big eq 20: an Int32 constant never equals an Int64", compare("Big", .eq, .int32(20)), []),
        FilterCase("D lt 2.0: Double", compare("D", .lt, .double(2.0)), ["r1"]),
        FilterCase("D ge 0.0: NaN is not ordered", compare("D", .ge, .double(0.0)), ["r1", "r2"]),
        FilterCase("D ne 1.5: NaN is not equal", compare("D", .ne, .double(1.5)), ["r2", "r3"]),
        FilterCase("D eq NaN: NaN equals nothing", compare("D", .eq, .double(.nan)), []),
        FilterCase("Flag: a Boolean property on its own", .property("Flag"), ["r1"]),
        FilterCase("not Flag: false or missing", .not(.property("Flag")), ["r2", "r3", "r4", "r5"]),
        FilterCase("Flag eq false", compare("Flag", .eq, .boolean(false)), ["r2"]),
        FilterCase("Flag lt true: false before true", compare("Flag", .lt, .boolean(true)), ["r2"]),
        FilterCase(
            "When gt 2020-06-01: DateTime",
            compare("When", .gt, .dateTime(.at("2020-06-01T00:00:00Z"))),
            ["r2"]
        ),
        FilterCase(
            "When le 2020-01-01: DateTime",
            compare("When", .le, .dateTime(.at("2020-01-01T00:00:00Z"))),
            ["r1"]
        ),
        FilterCase(
            "When eq a tick earlier: DateTimes compare to the tick",
            compare("When", .eq, .dateTime(.at("2021-06-15T12:00:00Z"))),
            []
        ),
        FilterCase(
            "When eq the very tick",
            compare("When", .eq, .dateTime(.at("2021-06-15T12:00:00.0000001Z"))),
            ["r2"]
        ),
        FilterCase("G eq guid: Guid", compare("G", .eq, .guid(guid1)), ["r1"]),
        FilterCase("G ne guid: a missing Guid fails ne", compare("G", .ne, .guid(guid1)), ["r2"]),
        FilterCase("Bin eq X'0103': Binary", compare("Bin", .eq, .binary([1, 3])), ["r2"]),
        FilterCase("Bin lt X'0103': Binary compares bytewise", compare("Bin", .lt, .binary([1, 3])), ["r1"]),
        FilterCase(
            "Bin gt X'01': a longer Binary sorts after its prefix",
            compare("Bin", .gt, .binary([1])),
            ["r1", "r2"]
        ),
        FilterCase("Name gt 'b': strings compare by UTF-8 bytes", compare("Name", .gt, .string("b")), ["r3", "r4"]),
        FilterCase("Name lt 'a': upper case sorts first", compare("Name", .lt, .string("a")), ["r2"]),
        FilterCase("Name ge 'apple'", compare("Name", .ge, .string("apple")), ["r1", "r3", "r4"]),
        FilterCase("Name eq 'Apple': strings are case-sensitive", compare("Name", .eq, .string("Apple")), []),
        FilterCase("Name eq 'édith': non-ASCII", compare("Name", .eq, .string("édith")), ["r4"]),
        FilterCase("Name eq 1: a string never equals an Int32", compare("Name", .eq, .int32(1)), []),
        FilterCase("Missing eq 'x': a missing property fails eq", compare("Missing", .eq, .string("x")), []),
        FilterCase("Missing ne 'x': a missing property fails ne", compare("Missing", .ne, .string("x")), []),
        FilterCase(
            "not (Missing eq 'x')",
            .not(compare("Missing", .eq, .string("x"))),
            ["r1", "r2", "r3", "r4", "r5"]
        ),
        FilterCase(
            "N eq 1 or Name eq 'cherry'",
            .or(compare("N", .eq, .int32(1)), compare("Name", .eq, .string("cherry"))),
            ["r1", "r3"]
        ),
        FilterCase("not (N eq 1)", .not(compare("N", .eq, .int32(1))), ["r2", "r3", "r4", "r5"]),
        FilterCase(
            "N ge 2 and not (D eq 2.5)",
            .and(compare("N", .ge, .int32(2)), .not(compare("D", .eq, .double(2.5)))),
            ["r3"]
        ),
        FilterCase("true", .constant(true), ["r1", "r2", "r3", "r4", "r5"]),
        FilterCase("false", .constant(false), []),
        FilterCase(
            "RowKey ge 'r2' and RowKey lt 'r4'",
            .and(compare("RowKey", .ge, .string("r2")), compare("RowKey", .lt, .string("r4"))),
            ["r2", "r3"]
        ),
        FilterCase("RowKey ne 'r3'", compare("RowKey", .ne, .string("r3")), ["r1", "r2", "r4", "r5"]),
        FilterCase("PartitionKey eq 'p'", compare("PartitionKey", .eq, .string("p")), ["r1", "r2", "r3", "r4", "r5"]),
        FilterCase("PartitionKey ne 'p'", compare("PartitionKey", .ne, .string("p")), []),
        // lt and le across types are unverified on Azure (azure-server-side.md §1): like gt and ge they
        // fail here, so a type mismatch matches only ne.
        FilterCase(
            "N lt 5: a Double 3.0 is not less than an Int32 either",
            compare("N", .lt, .int32(5)),
            ["r1", "r2", "r3"]
        ),
        FilterCase("N le 3.0: Doubles only", compare("N", .le, .double(3.0)), ["r4"]),
        FilterCase(
            "not (N gt 1): the Double and the missing match",
            .not(compare("N", .gt, .int32(1))),
            ["r1", "r4", "r5"]
        ),
        FilterCase(
            "Name lt 'z': é sorts after every ASCII letter",
            compare("Name", .lt, .string("z")),
            ["r1", "r2", "r3"]
        ),
    ]

    /// Filters as clients send them, parsed and evaluated: precedence (`not`, then `and`, then `or`),
    /// parentheses, and literals of every type.
    static let textCases: [(String, [String])] = [
        ("N eq 1 or N eq 2 and Flag", ["r1"]),
        ("(N eq 1 or N eq 2) and Flag", ["r1"]),
        ("(N eq 1 or N eq 2) and not Flag", ["r2"]),
        ("not Flag and N eq 2", ["r2"]),
        ("not (Flag and N eq 1)", ["r2", "r3", "r4", "r5"]),
        ("N eq 3 or Name eq 'apple' and N eq 2", ["r3"]),
        ("Big eq 20L or D eq 1.5", ["r1", "r2"]),
        ("When ge datetime'2021-01-01T00:00:00Z' and G eq guid'22222222-2222-4222-8222-222222222222'", ["r2"]),
        ("Bin eq X'0102' or Bin eq binary'0103'", ["r1", "r2"]),
        ("Flag eq true or Name eq 'Banana'", ["r1", "r2"]),
        ("3 lt N", []),
        ("Name eq 'O''Brien' or Name ne 'apple' and N ge 3", ["r3"]),
    ]

    @Test(
        "filter texts, parsed then evaluated: precedence, parentheses, not, every literal",
        arguments: ConformanceBackend.all
    )
    func textFilters(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.typed, table: Conformance.table, mode: .insert)
            for (text, rowKeys) in Self.textCases {
                let walked = try await walk(
                    account,
                    table: Conformance.table,
                    EntityQuery(filter: try EntityFilter(parsing: text)),
                    limit: 1_000
                )
                #expect(walked.entities.map(\.rowKey) == rowKeys, "\(text)")
            }
        }
    }

    @Test(
        "a typed filter returns exactly the entities Azure's comparison rules match",
        arguments: ConformanceBackend.all,
        typedCases
    )
    func typedFilter(backend: ConformanceBackend, filterCase: FilterCase) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.typed, table: Conformance.table, mode: .insert)
            let walked = try await walk(
                account,
                table: Conformance.table,
                EntityQuery(filter: filterCase.filter),
                limit: 1_000
            )
            #expect(walked.entities.map(\.rowKey) == filterCase.rowKeys)
            let byKey = Dictionary(uniqueKeysWithValues: Self.typed.map { ($0.rowKey, $0.canonical) })
            #expect(
                walked.entities.map(\.canonical) == filterCase.rowKeys.map { byKey[$0]! },
                "matching entities come back whole"
            )
        }
    }

    /// Five partitions of three entities: the filters a backend may answer from its key index.
    static let keyed = ["a", "b", "c", "d", "e"].flatMap { partition in
        (1...3).map { Entity(partitionKey: partition, rowKey: "\($0)") }
    }

    static let keyCases: [(EntityQuery, [String])] = [
        (
            EntityQuery(
                filter: .and(compare("PartitionKey", .ne, .string("b")), compare("PartitionKey", .ne, .string("d")))
            ),
            ["a1", "a2", "a3", "c1", "c2", "c3", "e1", "e2", "e3"]
        ),
        (
            EntityQuery(
                filter: .and(compare("PartitionKey", .ge, .string("b")), compare("PartitionKey", .lt, .string("d")))
            ), ["b1", "b2", "b3", "c1", "c2", "c3"]
        ),
        (EntityQuery(filter: compare("RowKey", .eq, .string("2"))), ["a2", "b2", "c2", "d2", "e2"]),
        (
            EntityQuery(filter: .or(compare("PartitionKey", .gt, .string("c")), compare("RowKey", .eq, .string("1")))),
            ["a1", "b1", "c1", "d1", "d2", "d3", "e1", "e2", "e3"]
        ),
        (EntityQuery(filter: .not(compare("PartitionKey", .le, .string("c")))), ["d1", "d2", "d3", "e1", "e2", "e3"]),
        (
            EntityQuery(filter: .and(compare("PartitionKey", .gt, .string("a")), compare("RowKey", .ge, .string("3")))),
            ["b3", "c3", "d3", "e3"]
        ),
        (EntityQuery(partition: "c", filter: compare("RowKey", .gt, .string("1"))), ["c2", "c3"]),
        (EntityQuery(partition: "c", filter: compare("PartitionKey", .eq, .string("d"))), []),
        (EntityQuery(partition: "c", filter: compare("PartitionKey", .le, .string("c"))), ["c1", "c2", "c3"]),
    ]

    @Test(
        "filters on PartitionKey and RowKey, with and without a partition, page by page",
        arguments: ConformanceBackend.all,
        [1, 2, 1_000]
    )
    func keyFilters(backend: ConformanceBackend, limit: Int) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.keyed, table: Conformance.table, mode: .insert)
            for (query, expected) in Self.keyCases {
                let walked = try await walk(account, table: Conformance.table, query, limit: limit)
                #expect(walked.entities.map { $0.partitionKey + $0.rowKey } == expected, "\(query)")
            }
        }
    }

    @Test("Timestamp compares as a DateTime, to the tick the account set", arguments: ConformanceBackend.all)
    func timestampFilter(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(
                [Entity(partitionKey: "p", rowKey: "first")],
                table: Conformance.table,
                mode: .insert
            )
            let first = try #require(
                try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "first")?.timestamp
            )
            try await account.write(
                [Entity(partitionKey: "p", rowKey: "second")],
                table: Conformance.table,
                mode: .insert
            )
            let cases: [(EntityFilter.ComparisonOperator, [String])] = [
                (.eq, ["first"]), (.le, ["first"]), (.gt, ["second"]), (.ge, ["first", "second"]), (.lt, []),
            ]
            for (op, expected) in cases {
                let walked = try await walk(
                    account,
                    table: Conformance.table,
                    EntityQuery(filter: Self.compare("Timestamp", op, .dateTime(first))),
                    limit: 10
                )
                #expect(walked.entities.map(\.rowKey) == expected, "Timestamp \(op) the first write's")
            }
        }
    }

    @Test(
        "select returns only the named properties an entity has, and always the keys",
        arguments: ConformanceBackend.all
    )
    func select(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.typed, table: Conformance.table, mode: .insert)
            let walked = try await walk(
                account,
                table: Conformance.table,
                EntityQuery(select: ["Name", "N", "Nowhere"]),
                limit: 1_000
            )
            let expected = Self.typed.map { entity in
                Entity(
                    partitionKey: entity.partitionKey,
                    rowKey: entity.rowKey,
                    properties: entity.properties.filter { ["Name", "N"].contains($0.name) }
                ).canonical
            }
            #expect(walked.entities.map(\.canonical) == expected)
            #expect(
                try await account.entity(table: Conformance.table, partitionKey: "p", rowKey: "r1")?.canonical
                    == Self.typed[0].canonical,
                "select changes nothing stored"
            )
        }
    }

    @Test("a filter tests properties that select leaves out", arguments: ConformanceBackend.all)
    func filterOnUnselected(backend: ConformanceBackend) async throws {
        try await backend.withAccount { account in
            try await account.write(Self.typed, table: Conformance.table, mode: .insert)
            let query = EntityQuery(
                filter: .and(.property("Flag"), Self.compare("Big", .eq, .int64(10))),
                select: ["Name"]
            )
            let walked = try await walk(account, table: Conformance.table, query, limit: 1_000)
            #expect(
                walked.entities.map(\.canonical) == [
                    Entity(partitionKey: "p", rowKey: "r1", properties: [Property("Name", .string("apple"))])
                ]
            )
        }
    }
}
