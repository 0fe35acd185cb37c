/// Strings made from bytes that must be valid UTF-8, checked by a branch-free automaton instead of
/// the standard library's validation.
///
/// `String(decoding:as:)` checks a byte at a time with a branch for each kind of byte: on prose with
/// a non-ASCII letter every few words it ran at about 1 GB/s, and took 17% of CSV→JSON on long text.
/// Here sixteen ASCII bytes are skipped at a time, and any other sixteen go through a DFA whose step
/// is one table load and one shift, with no branch (Per Vognsen's "shift-based DFA"): 2.3–2.8 GB/s
/// on that prose, 11 GB/s on ASCII. The bytes are
/// then copied into the String as the standard library's `UTF8Span(unchecked:)` allows: they were
/// just checked here. `UTF8TextTests` holds this check to the standard library's over every sequence
/// of up to three bytes and the edges of the four-byte ones.
package enum UTF8Text {
    /// The text of `bytes`, or nil when they are not valid UTF-8.
    @inlinable
    package static func string(validating bytes: UnsafeRawBufferPointer) -> String? {
        guard isValid(bytes) else { return nil }
        return string(known: bytes)
    }

    /// The text of `bytes`, which the caller knows to be valid UTF-8 (checked with ``isValid(_:)``, or
    /// all ASCII).
    @inlinable
    package static func string(known bytes: UnsafeRawBufferPointer) -> String {
        guard !bytes.isEmpty else { return "" }
        let span = Span(_unsafeElements: bytes.assumingMemoryBound(to: UInt8.self))
        return String(copying: UTF8Span(unchecked: span))
    }

    /// Whether `bytes` are valid UTF-8 (Unicode's definition: no overlong forms, surrogates, values
    /// past U+10FFFF or sequences cut short).
    @inlinable
    package static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let end = bytes.count
        return transitions.withUnsafeBufferPointer { table in
            var state = accept
            var index = 0
            while index + 16 <= end {
                let low = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let high = base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                // Between characters, sixteen ASCII bytes change nothing. Else all sixteen go through
                // the automaton: two words' steps cost less than a branch mispredicted on each word
                // of prose with a non-ASCII letter every few words.
                if (low | high) & SWAR.highs != 0 || state & 63 != accept {
                    state = step(state, through: low, table)
                    state = step(state, through: high, table)
                }
                index += 16
            }
            while index < end {
                state = table[Int(base.load(fromByteOffset: index, as: UInt8.self))] &>> state
                index += 1
            }
            return state & 63 == accept
        }
    }

    /// The state after the eight bytes of `word`, first byte first (the lowest on a little-endian
    /// machine). A function of its own, not a closure over `state`: a captured `var` is checked for
    /// exclusive access at run time, which took 15% of CSV→JSON.
    @inlinable @inline(__always)
    static func step(_ state: UInt64, through word: UInt64, _ table: UnsafeBufferPointer<UInt64>) -> UInt64 {
        var state = state
        var word = word
        for _ in 0..<8 {
            state = table[Int(word & 0xFF)] &>> state
            word >>= 8
        }
        return state
    }

    // The automaton. A state is the offset of its 6-bit field in a byte's row of `transitions`, and
    // the field holds the state that byte leads to. `&>>` takes the shift count modulo 64, so a step
    // is `row &>> state` and the bits above the field do no harm (x86-64's and arm64's shifts mask
    // the count themselves).

    @usableFromInline static var accept: UInt64 { 0 }
    @usableFromInline static var reject: UInt64 { 6 }
    /// Expecting 1, 2 or 3 more continuation bytes (80–BF).
    @usableFromInline static var tail1: UInt64 { 12 }
    @usableFromInline static var tail2: UInt64 { 18 }
    @usableFromInline static var tail3: UInt64 { 24 }
    /// After E0 (A0–BF next: no overlong form), ED (80–9F: no surrogate), F0 (90–BF: no overlong
    /// form) and F4 (80–8F: nothing past U+10FFFF).
    @usableFromInline static var afterE0: UInt64 { 30 }
    @usableFromInline static var afterED: UInt64 { 36 }
    @usableFromInline static var afterF0: UInt64 { 42 }
    @usableFromInline static var afterF4: UInt64 { 48 }

    /// Each byte's row: for each state, the state it leads to (Unicode's table 3-7 of well-formed
    /// byte sequences). A state not named leads to `reject`.
    @usableFromInline static let transitions: [UInt64] = (0...255).map { (byte: Int) -> UInt64 in
        var moves: [(from: UInt64, to: UInt64)] = []
        switch byte {
        case 0x00...0x7F: moves = [(accept, accept)]
        case 0x80...0xBF:
            moves = [(tail1, accept), (tail2, tail1), (tail3, tail2)]
            if byte >= 0xA0 { moves.append((afterE0, tail1)) }
            if byte <= 0x9F { moves.append((afterED, tail1)) }
            if byte >= 0x90 { moves.append((afterF0, tail2)) }
            if byte <= 0x8F { moves.append((afterF4, tail2)) }
        case 0xC2...0xDF: moves = [(accept, tail1)]
        case 0xE0: moves = [(accept, afterE0)]
        case 0xED: moves = [(accept, afterED)]
        case 0xE1...0xEF: moves = [(accept, tail2)]
        case 0xF0: moves = [(accept, afterF0)]
        case 0xF1...0xF3: moves = [(accept, tail3)]
        case 0xF4: moves = [(accept, afterF4)]
        default: break  // C0, C1 and F5–FF never appear
        }
        var row: UInt64 = 0
        for state in stride(from: UInt64(0), through: afterF4, by: 6) {
            let next = moves.first { $0.from == state }?.to ?? reject
            row |= next << state
        }
        return row
    }
}
