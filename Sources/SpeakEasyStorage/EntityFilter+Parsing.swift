internal import SpeakEasyModel

/// Reading Azure's `$filter` text into an ``EntityFilter``.
///
/// The grammar (OData v3 as the table service implements it):
///
///     or      := and ("or" and)*
///     and     := unary ("and" unary)*
///     unary   := "not" unary | "(" or ")" | operand [cmp operand]
///     cmp     := "eq" | "ne" | "gt" | "ge" | "lt" | "le"
///     operand := property | literal
///
/// so `not` binds tighter than `and`, and `and` tighter than `or`; `and` and `or` group from the left.
/// Every word is case-sensitive, as Azure documents ("all parts of the filter string are
/// case-sensitive"); Azurite takes `AND`, `Eq` or `TRUE` too, but a filter that only Azurite
/// understands fails on Azure, so we refuse them (with a hint).
extension EntityFilter {
    /// The longest filter accepted, in UTF-8 bytes. A filter travels in a URL; Azure's documented 15
    /// comparisons against its longest values (1 KiB keys, twice that when every character is a
    /// quote written twice) take about 31 KiB, so 64 KiB leaves room for any filter Azure could take
    /// while bounding what a hostile one costs (parsing is linear in the length).
    package static let maximumFilterLength = 64 * 1024

    /// The most parentheses and `not`s open at once. The parser recurses once per level, so this
    /// keeps `((((…` or `not not not …` from exhausting the stack; 32 is far beyond any real filter.
    package static let maximumNesting = 32

    /// The most conditions (comparisons, bare Boolean properties and `true`/`false`) in one filter.
    ///
    /// Azure documents "no more than 15 discrete comparisons" per filter, but no error for more is
    /// documented or recorded, and Azurite accepts any number; refusing at 15 would invent an answer
    /// Azure may not give, and break clients that work against it. So the parser allows more, and a
    /// client that wants to stay within Azure's documented limit checks ``comparisonCount``. The
    /// limit here keeps the tree shallow: a chain of `and`s is as deep as it is long, and evaluating,
    /// comparing and writing a filter all recurse through it.
    package static let maximumConditions = 100

    /// The comparisons in the filter, the count Azure's documented limit of 15 is about.
    package var comparisonCount: Int {
        switch self {
        case .comparison: 1
        case .property, .constant: 0
        case .not(let inner): inner.comparisonCount
        case .and(let left, let right), .or(let left, let right): left.comparisonCount + right.comparisonCount
        }
    }

    /// Parses a `$filter` text (already percent-decoded from the URL).
    ///
    /// A comparison with a constant on the left (`5 lt Score`) is turned round (`Score gt 5`); one
    /// with a property on both sides or on neither is refused, as Azure compares properties only with
    /// constants. Functions and arithmetic are refused with ``FilterSyntaxError/Kind/unsupportedOperation``.
    package init(parsing text: String) throws(FilterSyntaxError) {
        guard text.utf8.count <= Self.maximumFilterLength else {
            throw FilterSyntaxError(
                at: Self.maximumFilterLength,
                "the filter is longer than \(Self.maximumFilterLength) bytes"
            )
        }
        var parser = try FilterParser(text)
        self = try parser.parseFilter()
    }
}

/// A recursive-descent parser over ``FilterLexer``'s tokens, one token of lookahead.
struct FilterParser {
    /// Words with a meaning of their own: never property names, never functions.
    static let keywords: Set<String> = ["and", "or", "not", "eq", "ne", "gt", "ge", "lt", "le"]
    /// OData's arithmetic operators, which the table service does not implement.
    static let arithmetic: Set<String> = ["add", "sub", "mul", "div", "mod"]

    private var lexer: FilterLexer
    private var token: FilterToken
    private var nesting = 0
    private var conditions = 0

    init(_ text: String) throws(FilterSyntaxError) {
        lexer = FilterLexer(text)
        token = try lexer.next()
    }

    mutating func parseFilter() throws(FilterSyntaxError) -> EntityFilter {
        if token.kind == .end { throw FilterSyntaxError(at: token.offset, "the filter is empty") }
        let filter = try parseOr()
        guard token.kind == .end else { throw unexpected(expecting: "'and', 'or' or the end of the filter") }
        return filter
    }

    private mutating func advance() throws(FilterSyntaxError) { token = try lexer.next() }

    private func isWord(_ word: String) -> Bool { token.kind == .word(word) }

    private mutating func parseOr() throws(FilterSyntaxError) -> EntityFilter {
        var filter = try parseAnd()
        while isWord("or") {
            try advance()
            filter = .or(filter, try parseAnd())
        }
        return filter
    }

    private mutating func parseAnd() throws(FilterSyntaxError) -> EntityFilter {
        var filter = try parseUnary()
        while isWord("and") {
            try advance()
            filter = .and(filter, try parseUnary())
        }
        return filter
    }

    private mutating func parseUnary() throws(FilterSyntaxError) -> EntityFilter {
        if isWord("not") {
            try enter()
            try advance()
            // `not (…)` is one level, not two: the OData writer brackets a comparison after `not`,
            // and a filter that parses must parse again once written (a fuzz finding: 32 nots
            // before a comparison came back as 33 levels).
            let bracketed = token.kind == .open
            if bracketed { nesting -= 1 }
            let inner = try parseUnary()
            if !bracketed { nesting -= 1 }
            return .not(inner)
        }
        if token.kind == .open {
            let open = token.offset
            try enter()
            try advance()
            let inner = try parseOr()
            guard token.kind == .close else {
                throw unexpected(expecting: "'and', 'or' or the ')' closing the '(' at offset \(open)")
            }
            try advance()
            nesting -= 1
            return inner
        }
        return try parseCondition()
    }

    /// Counts a level of nesting, refusing one too many.
    private mutating func enter() throws(FilterSyntaxError) {
        nesting += 1
        guard nesting <= EntityFilter.maximumNesting else {
            throw FilterSyntaxError(
                at: token.offset,
                "the filter nests more than \(EntityFilter.maximumNesting) parentheses and 'not's deep"
            )
        }
    }

    /// `operand [cmp operand]`: a comparison, or a Boolean property or constant on its own.
    private mutating func parseCondition() throws(FilterSyntaxError) -> EntityFilter {
        let start = token.offset
        conditions += 1
        guard conditions <= EntityFilter.maximumConditions else {
            throw FilterSyntaxError(at: start, "the filter has more than \(EntityFilter.maximumConditions) conditions")
        }
        let left = try parseOperand()
        guard case .word(let word) = token.kind, let op = EntityFilter.ComparisonOperator(rawValue: word) else {
            if case .word(let word) = token.kind, Self.arithmetic.contains(word) { throw arithmetic(word) }
            switch left {
            case .property(let name): return .property(name)
            case .constant(.boolean(let value)): return .constant(value)
            case .constant:
                throw FilterSyntaxError(
                    at: start,
                    "'\(lexer.text(start, token.offset).trimmingTrailingSpaces)' is not a condition: compare it with a property"
                )
            }
        }
        try advance()
        let right = try parseOperand()
        if case .word(let word) = token.kind, Self.arithmetic.contains(word) { throw arithmetic(word) }
        let comparison = lexer.text(start, token.offset).trimmingTrailingSpaces
        switch (left, right) {
        case (.property(let name), .constant(let value)): return .comparison(property: name, op, value)
        case (.constant(let value), .property(let name)): return .comparison(property: name, op.swapped, value)
        case (.property(let a), .property(let b)):
            // `TRUE`, `False`: Booleans are lower-case, anything else is a name.
            let hint =
                [a, b].contains { ["true", "false"].contains($0.lowercased()) }
                ? " (Booleans are written true and false)" : ""
            throw FilterSyntaxError(
                at: start,
                "'\(comparison)' compares two properties; Azure compares a property only with a constant\(hint)"
            )
        case (.constant, .constant):
            throw FilterSyntaxError(at: start, "'\(comparison)' compares two constants; one side must be a property")
        }
    }

    private enum Operand {
        case property(String)
        case constant(EdmValue)
    }

    private mutating func parseOperand() throws(FilterSyntaxError) -> Operand {
        switch token.kind {
        case .literal(let value):
            try advance()
            return .constant(value)
        case .word(let word) where !Self.keywords.contains(word):
            try advance()
            return .property(word)
        case .function(let name):
            throw FilterSyntaxError(
                .unsupportedOperation,
                at: token.offset,
                "functions such as '\(name)' are not implemented by Azure Table storage"
            )
        default:
            throw unexpected(expecting: "a property or a constant")
        }
    }

    private func arithmetic(_ word: String) -> FilterSyntaxError {
        FilterSyntaxError(
            .unsupportedOperation,
            at: token.offset,
            "arithmetic such as '\(word)' is not implemented by Azure Table storage"
        )
    }

    /// An error naming what was found instead of what was expected, with a hint when a word is a
    /// keyword in the wrong case.
    private func unexpected(expecting expected: String) -> FilterSyntaxError {
        let found: String
        switch token.kind {
        case .end: return FilterSyntaxError(at: token.offset, "the filter ends where \(expected) was expected")
        case .word(let word) where !Self.keywords.contains(word) && Self.keywords.contains(word.lowercased()):
            found = "'\(word)' (operators are case-sensitive: write '\(word.lowercased())')"
        default: found = "'\(lexer.text(token.offset, token.end))'"
        }
        return FilterSyntaxError(at: token.offset, "\(expected) was expected, not \(found)")
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = Substring(self)
        while let last = text.last, last == " " || last == "\t" || last == "\n" || last == "\r" { text.removeLast() }
        return String(text)
    }
}
