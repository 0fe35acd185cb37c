import SpeakEasyData
import TestSupport
import Testing

@Suite("Filter writing (OData text)")
struct EntityFilterODataTests {
    static func compare(_ name: String, _ op: EntityFilter.ComparisonOperator, _ value: EdmValue) -> EntityFilter {
        .comparison(property: name, op, value)
    }

    @Test("each constant is written in the form Azure reads back as the same type")
    func literals() {
        let cases: [(EdmValue, String)] = [
            (.string("O'Brien"), "'O''Brien'"),
            // A quote followed by a combining mark is one Character; its quote is doubled all the
            // same (a fuzz finding: the literal ended there when read back).
            (.string("'\u{670}"), "'''\u{670}'"),
            (.string(""), "''"),
            (.int32(-7), "-7"),
            (.int32(.min), "-2147483648"),
            (.int64(42), "42L"),
            (.int64(.min), "-9223372036854775808L"),
            (.double(5), "5.0"),
            (.double(2.5), "2.5"),
            (.double(-0.0), "-0.0"),
            (.double(1e20), "1E+20"),
            (.double(1e-5), "1E-05"),
            (.double(5e-324), "5E-324"),
            (.double(.nan), "NaN"),
            (.double(.infinity), "INF"),
            (.double(-.infinity), "-INF"),
            (.boolean(true), "true"),
            (.dateTime(.at("2012-11-10T03:04:05.2Z")), "datetime'2012-11-10T03:04:05.2000000Z'"),
            (.guid(EdmGuid("C9DA6455-213D-42C9-9A79-3E9149A57833")!), "guid'c9da6455-213d-42c9-9a79-3e9149a57833'"),
            (.binary([0x0A, 0xFF]), "X'0AFF'"),
            (.binary([]), "X''"),
        ]
        for (value, text) in cases {
            #expect(EntityFilter.odataLiteral(value) == text)
        }
    }

    @Test("parentheses appear only where the grouping needs them")
    func parentheses() {
        let a = EntityFilter.property("A")
        let b = EntityFilter.property("B")
        let c = EntityFilter.property("C")
        let x = Self.compare("X", .eq, .int32(1))
        let cases: [(EntityFilter, String)] = [
            (.or(.and(a, b), c), "A and B or C"),
            (.or(a, .and(b, c)), "A or B and C"),
            (.and(.or(a, b), c), "(A or B) and C"),
            (.and(a, .or(b, c)), "A and (B or C)"),
            (.and(.and(a, b), c), "A and B and C"),
            (.and(a, .and(b, c)), "A and (B and C)"),
            (.or(.or(a, b), c), "A or B or C"),
            (.or(a, .or(b, c)), "A or (B or C)"),
            (.not(a), "not A"),
            (.not(.not(a)), "not not A"),
            (.not(x), "not (X eq 1)"),
            (.not(.and(a, b)), "not (A and B)"),
            (.and(.not(a), .not(x)), "not A and not (X eq 1)"),
            (.constant(false), "false"),
            (.or(x, .constant(true)), "X eq 1 or true"),
        ]
        for (filter, text) in cases {
            #expect(filter.odataText == text)
        }
    }

    @Test("writing what was parsed gives a canonical text that reads back the same")
    func canonicalText() throws {
        let cases: [(String, String)] = [
            ("5 lt Score", "Score gt 5"),
            ("((A eq 1))", "A eq 1"),
            ("(A eq 1) or (B eq 2)", "A eq 1 or B eq 2"),
            ("A eq 1 and (B eq 2 and C eq 3)", "A eq 1 and (B eq 2 and C eq 3)"),
            ("not A eq 1", "not (A eq 1)"),
            ("N eq 007", "N eq 7"),
            ("N eq 2.50", "N eq 2.5"),
            ("N eq 1.5e10", "N eq 15000000000.0"),
            ("D eq datetime'2012-11-10T03:04:05.200Z'", "D eq datetime'2012-11-10T03:04:05.2000000Z'"),
            ("D eq datetime'2012-11-10T03:04:05'", "D eq datetime'2012-11-10T03:04:05.0000000Z'"),
            ("B eq binary'0aff'", "B eq X'0AFF'"),
            ("G eq guid'C9DA6455-213D-42C9-9A79-3E9149A57833'", "G eq guid'c9da6455-213d-42c9-9a79-3e9149a57833'"),
            (" PartitionKey  eq\t'p' ", "PartitionKey eq 'p'"),
        ]
        for (text, canonical) in cases {
            let filter = try EntityFilter(parsing: text)
            #expect(filter.odataText == canonical)
            #expect(try EntityFilter(parsing: canonical) == filter)
            #expect(try EntityFilter(parsing: filter.odataText).odataText == canonical)
        }
    }

    /// Random filters of every shape and constant, from a fixed seed.
    struct Generator {
        var random: SplitMix64
        static let names = [
            "A", "Score", "PartitionKey", "RowKey", "Timestamp", "_x1", "Név", "日付", "notes", "order", "NaNa", "X",
        ]
        static let characters = Array("ab 'O''() and or eq é日\t\"\\%+")

        mutating func int(_ bound: Int) -> Int { Int(random.uniform(below: UInt64(bound))) }

        mutating func filter(depth: Int) -> EntityFilter {
            let choice = depth == 0 ? int(3) : int(7)
            switch choice {
            case 0:
                return .comparison(
                    property: Self.names[int(Self.names.count)],
                    EntityFilter.ComparisonOperator.allCases[int(6)],
                    value()
                )
            case 1: return int(4) == 0 ? .constant(int(2) == 0) : .property(Self.names[int(Self.names.count)])
            case 2: return .comparison(property: Self.names[int(Self.names.count)], .eq, value())
            case 3: return .not(filter(depth: depth - 1))
            case 4, 5: return .and(filter(depth: depth - 1), filter(depth: depth - 1))
            default: return .or(filter(depth: depth - 1), filter(depth: depth - 1))
            }
        }

        mutating func value() -> EdmValue {
            switch int(8) {
            case 0: return .string(String((0..<int(8)).map { _ in Self.characters[int(Self.characters.count)] }))
            case 1: return .int32(Int32(truncatingIfNeeded: random.next()) >> int(32))
            case 2: return .int64(Int64(bitPattern: random.next()) >> int(64))
            case 3:
                let special: [Double] = [
                    0, -0.0, .nan, .infinity, -.infinity, 5, 0.1, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                ]
                if int(4) == 0 { return .double(special[int(special.count)]) }
                let number = Double(bitPattern: random.next())
                return .double(number.isNaN ? 1.5 : number)
            case 4: return .boolean(int(2) == 0)
            case 5:
                return .dateTime(EdmDateTime(ticks: Int64(random.uniform(below: UInt64(EdmDateTime.max.ticks) + 1)))!)
            case 6: return .guid(EdmGuid(high: random.next(), low: random.next()))
            default: return .binary((0..<int(6)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            }
        }
    }

    @Test("parsing the written text of 5000 random filters gives each filter back, and writing it again the same text")
    func randomRoundTrip() throws {
        var generator = Generator(random: SplitMix64(seed: 20_240_501))
        var comparisons = 0
        for _ in 0..<5000 {
            let filter = generator.filter(depth: generator.int(6))
            let text = filter.odataText
            let parsed = try EntityFilter(parsing: text)
            #expect(parsed == filter, "\(text)")
            #expect(parsed.odataText == text)
            comparisons += filter.comparisonCount
        }
        #expect(comparisons > 5000, "the generator makes comparisons, not only Booleans")
    }

    @Test("a parsed filter evaluates by Azure's rules: a Double property is greater than 5.0, never than 5")
    func evaluatesParsedFilters() throws {
        let entity = Entity(
            partitionKey: "speakers",
            rowKey: "ada",
            properties: [
                Property("Score", .double(6)), Property("Talks", .int32(3)), Property("Name", .string("O'Brien")),
                Property("IsActive", .boolean(true)),
            ]
        )
        let cases: [(String, Bool)] = [
            ("Score gt 5", false),
            ("Score gt 5.0", true),
            ("Score ne 5", true),
            ("5.0 lt Score", true),
            ("Talks ge 3 and Talks lt 4", true),
            ("Talks eq 3L", false),
            ("Name eq 'O''Brien'", true),
            ("IsActive", true),
            ("IsActive eq false or PartitionKey eq 'speakers' and RowKey gt 'a'", true),
            ("(IsActive eq false or PartitionKey eq 'speakers') and RowKey gt 'b'", false),
            ("Missing ne 5", false),
            ("not (Missing eq 5)", true),
            ("not Score gt 5.0", false),
        ]
        for (text, matches) in cases {
            #expect(try EntityFilter(parsing: text).matches(entity) == matches, "\(text)")
        }
    }

    /// The filters azure-sdk-for-node's type tests sent to Azure (2013), each of which returned the
    /// entity of the recorded feed; the DateTime one's reply is that feed.
    @Test("the filters recorded against Azure match the recorded entities")
    func recordedFilters() throws {
        let entities = try Atom.read(readFile(TestPaths.azureFixtures + "/table-atom-query-entities-feed.xml"))
        #expect(entities.count == 2)
        let filters = [
            "DateValue eq datetime'2012-11-10T03:04:05.200Z'",
            "IntNumberValue eq 200",
            "DoubleNumberValue eq 2.5",
            "FalseBooleanValue eq false",
            "TrueBooleanValue eq true",
        ]
        for text in filters {
            let filter = try EntityFilter(parsing: text)
            #expect(entities.allSatisfy(filter.matches), "\(text)")
            #expect(try EntityFilter(parsing: filter.odataText) == filter)
        }
        #expect(
            try EntityFilter(parsing: filters[0])
                == Self.compare("DateValue", .eq, .dateTime(.at("2012-11-10T03:04:05.2Z")))
        )
        #expect(try !EntityFilter(parsing: "IntNumberValue eq 200L").matches(entities[0]))
    }
}
