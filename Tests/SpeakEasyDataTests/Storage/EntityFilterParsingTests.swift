import CLISupport
import SpeakEasyData
import TestSupport
import Testing

@Suite("Filter parsing")
struct EntityFilterParsingTests {
    static func compare(_ name: String, _ op: EntityFilter.ComparisonOperator, _ value: EdmValue) -> EntityFilter {
        .comparison(property: name, op, value)
    }

    static func error(_ text: String) -> FilterSyntaxError? {
        do {
            _ = try EntityFilter(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    static let literals: [(String, EdmValue)] = [
        ("'O''Brien'", .string("O'Brien")),
        ("''", .string("")),
        ("''''", .string("'")),
        ("'a and b eq (c)'", .string("a and b eq (c)")),
        ("'Zoë 日本'", .string("Zoë 日本")),
        ("42", .int32(42)),
        ("-7", .int32(-7)),
        ("0", .int32(0)),
        ("2147483647", .int32(.max)),
        ("-2147483648", .int32(.min)),
        ("42L", .int64(42)),
        ("2147483648L", .int64(2_147_483_648)),
        ("-9223372036854775808L", .int64(.min)),
        ("9223372036854775807L", .int64(.max)),
        ("2.5", .double(2.5)),
        ("5.0", .double(5)),
        ("-0.5", .double(-0.5)),
        ("-0.0", .double(-0.0)),
        ("1.5E+10", .double(1.5e10)),
        ("2.5e-3", .double(0.0025)),
        ("2E10", .double(2e10)),
        ("5E-324", .double(5e-324)),
        ("NaN", .double(.nan)),
        ("INF", .double(.infinity)),
        ("-INF", .double(-.infinity)),
        ("true", .boolean(true)),
        ("false", .boolean(false)),
        ("datetime'2024-05-01T10:00:00Z'", .dateTime(.at("2024-05-01T10:00:00Z"))),
        ("datetime'2024-05-01T10:00:00.1234567Z'", .dateTime(.at("2024-05-01T10:00:00.1234567Z"))),
        ("datetime'2012-11-10T03:04:05.200Z'", .dateTime(.at("2012-11-10T03:04:05.2Z"))),
        ("datetime'2024-05-01T10:00:00.5'", .dateTime(.at("2024-05-01T10:00:00.5Z"))),
        ("guid'c9da6455-213d-42c9-9a79-3e9149a57833'", .guid(EdmGuid("c9da6455-213d-42c9-9a79-3e9149a57833")!)),
        ("guid'C9DA6455-213D-42C9-9A79-3E9149A57833'", .guid(EdmGuid("c9da6455-213d-42c9-9a79-3e9149a57833")!)),
        ("X'0AFF'", .binary([0x0A, 0xFF])),
        ("binary'0aff'", .binary([0x0A, 0xFF])),
        ("X''", .binary([])),
    ]

    @Test("every literal form is read as its Edm type and value", arguments: literals)
    func literal(text: String, value: EdmValue) throws {
        #expect(try EntityFilter(parsing: "P eq \(text)") == Self.compare("P", .eq, value))
    }

    @Test("every operator, the keys, Timestamp and a Boolean property on its own")
    func operatorsAndNames() throws {
        for op in EntityFilter.ComparisonOperator.allCases {
            #expect(try EntityFilter(parsing: "Score \(op.rawValue) 3") == Self.compare("Score", op, .int32(3)))
        }
        #expect(
            try EntityFilter(
                parsing: "PartitionKey eq 'p' and RowKey ge 'r' and Timestamp lt datetime'2024-05-01T00:00:00Z'"
            )
                == .and(
                    .and(Self.compare("PartitionKey", .eq, .string("p")), Self.compare("RowKey", .ge, .string("r"))),
                    Self.compare("Timestamp", .lt, .dateTime(.at("2024-05-01T00:00:00Z")))
                )
        )
        #expect(try EntityFilter(parsing: "IsActive") == .property("IsActive"))
        #expect(
            try EntityFilter(parsing: "_x1 eq 1 or Név eq 2")
                == .or(Self.compare("_x1", .eq, .int32(1)), Self.compare("Név", .eq, .int32(2)))
        )
        #expect(try EntityFilter(parsing: "true") == .constant(true))
        #expect(try EntityFilter(parsing: "IsActive eq true") == Self.compare("IsActive", .eq, .boolean(true)))
        #expect(try EntityFilter(parsing: " \tA\neq\r\n1  ") == Self.compare("A", .eq, .int32(1)))
        #expect(
            try EntityFilter(parsing: "(A eq 1)and(B eq 2)")
                == .and(Self.compare("A", .eq, .int32(1)), Self.compare("B", .eq, .int32(2)))
        )
    }

    @Test("not binds tighter than and, and tighter than or; both group from the left")
    func precedence() throws {
        let a = EntityFilter.property("A")
        let b = EntityFilter.property("B")
        let c = EntityFilter.property("C")
        let cases: [(String, EntityFilter)] = [
            ("A and B or C", .or(.and(a, b), c)),
            ("A or B and C", .or(a, .and(b, c))),
            ("A and B and C", .and(.and(a, b), c)),
            ("A or B or C", .or(.or(a, b), c)),
            ("A and (B or C)", .and(a, .or(b, c))),
            ("(A or B) and C", .and(.or(a, b), c)),
            ("A or (B or C)", .or(a, .or(b, c))),
            ("not A and B", .and(.not(a), b)),
            ("not A or B and C", .or(.not(a), .and(b, c))),
            ("not (A and B)", .not(.and(a, b))),
            ("not not A", .not(.not(a))),
            ("not A eq 1", .not(Self.compare("A", .eq, .int32(1)))),
            ("not false", .not(.constant(false))),
            ("((A))", a),
            ("(((A) and ((B))))", .and(a, b)),
        ]
        for (text, filter) in cases {
            #expect(try EntityFilter(parsing: text) == filter, "\(text)")
        }
    }

    @Test("a constant on the left is turned round, the operator with it")
    func swapping() throws {
        #expect(try EntityFilter(parsing: "5 lt Score") == Self.compare("Score", .gt, .int32(5)))
        #expect(try EntityFilter(parsing: "5 le Score") == Self.compare("Score", .ge, .int32(5)))
        #expect(try EntityFilter(parsing: "5 gt Score") == Self.compare("Score", .lt, .int32(5)))
        #expect(try EntityFilter(parsing: "5 ge Score") == Self.compare("Score", .le, .int32(5)))
        #expect(try EntityFilter(parsing: "'x' eq Name") == Self.compare("Name", .eq, .string("x")))
        #expect(try EntityFilter(parsing: "2.5 ne Rating") == Self.compare("Rating", .ne, .double(2.5)))
        #expect(try EntityFilter(parsing: "true eq IsActive") == Self.compare("IsActive", .eq, .boolean(true)))
    }

    static let errors: [(text: String, kind: FilterSyntaxError.Kind, offset: Int, message: String)] = [
        ("", .invalidInput, 0, "the filter is empty"),
        ("   ", .invalidInput, 3, "the filter is empty"),
        (
            "Name eq 'abc", .invalidInput, 8,
            "unterminated string: the quote opened here is never closed (a quote inside a string is written twice: 'O''Brien')"
        ),
        // `Brien'` reads as a prefix and an unclosed quote: the hint names the doubled quote.
        (
            "Name eq 'O'Brien'", .invalidInput, 16,
            "unterminated string: the quote opened here is never closed (a quote inside a string is written twice: 'O''Brien')"
        ),
        (
            "D eq datetime'2024-13-01T00:00:00Z'", .invalidInput, 5,
            "Unrecognized 'Edm.DateTime' literal 'datetime'2024-13-01T00:00:00Z'': a field is out of range; expected yyyy-MM-ddTHH:mm:ss[.fffffff][Z]"
        ),
        (
            "D eq datetime'2024-05-01T10:00:00.12345678Z'", .invalidInput, 5,
            "Unrecognized 'Edm.DateTime' literal 'datetime'2024-05-01T10:00:00.12345678Z'': more than 7 fractional digits; expected yyyy-MM-ddTHH:mm:ss[.fffffff][Z]"
        ),
        (
            "D eq datetime'2024-05-01'", .invalidInput, 5,
            "Unrecognized 'Edm.DateTime' literal 'datetime'2024-05-01'': too short; expected yyyy-MM-ddTHH:mm:ss[.fffffff][Z]"
        ),
        (
            "D eq DateTime'2024-05-01T10:00:00Z'", .invalidInput, 5,
            "unknown literal prefix 'DateTime': prefixes are case-sensitive, write 'datetime'"
        ),
        (
            "D eq time'10:00'", .invalidInput, 5,
            "unknown literal prefix 'time'; Azure Table storage takes datetime'…', guid'…', X'…' and binary'…'"
        ),
        (
            "G eq guid'c9da6455'", .invalidInput, 5,
            "Unrecognized 'Edm.Guid' literal 'guid'c9da6455'': expected 8-4-4-4-12 hexadecimal digits"
        ),
        (
            "B eq X'0AF'", .invalidInput, 5,
            "Unrecognized 'Edm.Binary' literal 'X'0AF'': expected an even number of hexadecimal digits"
        ),
        (
            "B eq X'0G'", .invalidInput, 5,
            "Unrecognized 'Edm.Binary' literal 'X'0G'': expected an even number of hexadecimal digits"
        ),
        ("N eq 2147483648", .invalidInput, 5, "Unrecognized 'Edm.Int32' literal '2147483648'"),
        ("N eq -2147483649", .invalidInput, 5, "Unrecognized 'Edm.Int32' literal '-2147483649'"),
        ("N eq 9223372036854775808L", .invalidInput, 5, "Unrecognized 'Edm.Int64' literal '9223372036854775808L'"),
        ("N eq 1E999", .invalidInput, 5, "Unrecognized 'Edm.Double' literal '1E999'"),
        ("N eq 5d", .invalidInput, 5, "'5d' is not a literal: numbers are 42 (Int32), 42L (Int64) or 4.2 (Double)"),
        ("N eq 42l", .invalidInput, 5, "'42l' is not a literal: numbers are 42 (Int32), 42L (Int64) or 4.2 (Double)"),
        ("N eq 2.5L", .invalidInput, 5, "'2.5L' is not a literal: numbers are 42 (Int32), 42L (Int64) or 4.2 (Double)"),
        (
            "N eq 1.2.3", .invalidInput, 5,
            "'1.2.3' is not a literal: numbers are 42 (Int32), 42L (Int64) or 4.2 (Double)"
        ),
        ("N eq 5.", .invalidInput, 5, "'5.' is not a number: a digit must follow the '.'"),
        ("N eq 5E", .invalidInput, 5, "'5E' is not a number: the exponent has no digits"),
        ("N eq - 5", .invalidInput, 5, "'-' must be followed by digits: there is no subtraction"),
        (
            "N eq null", .invalidInput, 5,
            "null is not a value Azure Table storage compares with; a missing property fails every comparison"
        ),
        ("A eq 1 B eq 2", .invalidInput, 7, "'and', 'or' or the end of the filter was expected, not 'B'"),
        // Offsets count UTF-8 bytes: 'é' is two, so 'B' is at 13 (the 12th character).
        ("Név eq 'é' B", .invalidInput, 13, "'and', 'or' or the end of the filter was expected, not 'B'"),
        ("A eq 1)", .invalidInput, 6, "'and', 'or' or the end of the filter was expected, not ')'"),
        ("A eq 1 eq 2", .invalidInput, 7, "'and', 'or' or the end of the filter was expected, not 'eq'"),
        (
            "A eq 1 AND B eq 2", .invalidInput, 7,
            "'and', 'or' or the end of the filter was expected, not 'AND' (operators are case-sensitive: write 'and')"
        ),
        (
            "A Eq 1", .invalidInput, 2,
            "'and', 'or' or the end of the filter was expected, not 'Eq' (operators are case-sensitive: write 'eq')"
        ),
        ("A eq", .invalidInput, 4, "the filter ends where a property or a constant was expected"),
        ("A eq 1 and", .invalidInput, 10, "the filter ends where a property or a constant was expected"),
        ("A eq and B", .invalidInput, 5, "a property or a constant was expected, not 'and'"),
        ("eq 5", .invalidInput, 0, "a property or a constant was expected, not 'eq'"),
        ("()", .invalidInput, 1, "a property or a constant was expected, not ')'"),
        (
            "(A eq 1", .invalidInput, 7,
            "the filter ends where 'and', 'or' or the ')' closing the '(' at offset 0 was expected"
        ),
        (
            "A eq B", .invalidInput, 0,
            "'A eq B' compares two properties; Azure compares a property only with a constant"
        ),
        (
            "IsActive eq TRUE", .invalidInput, 0,
            "'IsActive eq TRUE' compares two properties; Azure compares a property only with a constant (Booleans are written true and false)"
        ),
        ("1 eq 1 or A", .invalidInput, 0, "'1 eq 1' compares two constants; one side must be a property"),
        ("5", .invalidInput, 0, "'5' is not a condition: compare it with a property"),
        ("A eq 1 or 'x' and B", .invalidInput, 10, "''x'' is not a condition: compare it with a property"),
        ("A === 1", .invalidInput, 2, "unexpected character '='"),
        ("Name eq \"x\"", .invalidInput, 8, "unexpected character '\"'"),
        ("A eq 1 & B eq 2", .invalidInput, 7, "unexpected character '&'"),
        (
            "startswith(Name, 'a')", .unsupportedOperation, 0,
            "functions such as 'startswith' are not implemented by Azure Table storage"
        ),
        (
            "A eq 1 and substringof('a', Name)", .unsupportedOperation, 11,
            "functions such as 'substringof' are not implemented by Azure Table storage"
        ),
        (
            "Price add 5 eq 10", .unsupportedOperation, 6,
            "arithmetic such as 'add' is not implemented by Azure Table storage"
        ),
        (
            "Price eq 10 mul 2", .unsupportedOperation, 12,
            "arithmetic such as 'mul' is not implemented by Azure Table storage"
        ),
    ]

    @Test("a text that is no filter fails at the offending offset, with a message saying why", arguments: errors)
    func failure(text: String, kind: FilterSyntaxError.Kind, offset: Int, message: String) {
        #expect(Self.error(text) == FilterSyntaxError(kind, at: offset, message))
    }

    @Test(
        "nesting beyond 32 parentheses or nots is refused, at the level that is one too many, without recursing further"
    )
    func nesting() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "(", count: depth) + "A" + String(repeating: ")", count: depth)
        }
        #expect(try EntityFilter(parsing: nested(32)) == .property("A"))
        #expect(
            Self.error(nested(33))
                == FilterSyntaxError(at: 32, "the filter nests more than 32 parentheses and 'not's deep")
        )
        // 60 000 open parentheses: refused at the 33rd, far from any stack limit.
        #expect(Self.error(String(repeating: "(", count: 60_000))?.offset == 32)
        #expect(Self.error(String(repeating: "not ", count: 10_000) + "A")?.offset == 128)
        // `not (` is one level: the writer brackets a comparison after `not`, so 32 nots before one
        // must parse again once written (a fuzz finding).
        func notBracketed(_ depth: Int) -> String {
            String(repeating: "not (", count: depth) + "A" + String(repeating: ")", count: depth)
        }
        _ = try EntityFilter(parsing: notBracketed(32))
        #expect(Self.error(notBracketed(33))?.offset == 160)
        let deepest = try EntityFilter(parsing: String(repeating: "not ", count: 32) + "A eq 1")
        #expect(try EntityFilter(parsing: deepest.odataText) == deepest)
    }

    @Test("a filter longer than 64 KiB is refused before it is read")
    func length() throws {
        let longest = "Name eq '" + String(repeating: "x", count: 65_536 - 10) + "'"
        #expect(longest.utf8.count == 65_536)
        #expect(
            try EntityFilter(parsing: longest)
                == Self.compare("Name", .eq, .string(String(repeating: "x", count: 65_526)))
        )
        #expect(Self.error(longest + " ") == FilterSyntaxError(at: 65_536, "the filter is longer than 65536 bytes"))
        // Bytes, not characters: 30 000 two-byte characters are 60 000 bytes.
        #expect(Self.error("Name eq '" + String(repeating: "é", count: 33_000) + "'")?.offset == 65_536)
    }

    @Test("at most 100 conditions; Azure's documented 15 comparisons are counted, not enforced")
    func conditions() throws {
        func chain(_ count: Int) -> String { (0..<count).map { "A eq \($0)" }.joined(separator: " or ") }
        let hundred = try EntityFilter(parsing: chain(100))
        #expect(hundred.comparisonCount == 100)
        #expect(try EntityFilter(parsing: chain(16)).comparisonCount == 16)
        let offset = chain(100).utf8.count + " or ".utf8.count
        #expect(Self.error(chain(101)) == FilterSyntaxError(at: offset, "the filter has more than 100 conditions"))
        #expect(try EntityFilter(parsing: "IsActive and not Deleted and Score gt 5").comparisonCount == 1)
    }

    @Test("a storage account answers 400 InvalidInput for bad syntax and 501 NotImplemented for functions")
    func storageErrors() {
        let invalid = StorageError(Self.error("N eq 2147483648")!, account: "local")
        #expect(invalid.reason == .invalidInput)
        #expect(invalid.httpStatus == 400)
        #expect(invalid.azureCode == "InvalidInput")
        #expect(invalid.message == "Unrecognized 'Edm.Int32' literal '2147483648' (at offset 5 of the $filter)")
        let function = StorageError(Self.error("startswith(Name,'a')")!, account: "local")
        #expect(function.reason == .unsupportedByService)
        #expect(function.httpStatus == 501)
        #expect(function.azureCode == "NotImplemented")
        #expect(ExitStatus.kind(of: function.reason) == .malformedInput)
        #expect(StorageError.Reason(httpStatus: 501) == .unsupportedByService)
        #expect(StorageError.Reason.unsupportedByService.defaultAzureCode == "NotImplemented")
    }
}
