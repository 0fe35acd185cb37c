extension String {
    /// Whether the two are equal but for the case of ASCII letters: how HTTP compares header names
    /// and Azure its query parameter names. No lower-cased copies are made, which matters where
    /// every request looks up a dozen names.
    package func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let equal = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in Self.equalIgnoringASCIICase(a, b) }
        }
        return (equal ?? nil) ?? Self.equalIgnoringASCIICase(Array(utf8), Array(other.utf8))
    }

    /// Whether `needle` occurs in the string, ignoring the case of ASCII letters: for media types and
    /// `Prefer` values. Compared as bytes; `contains` on strings costs microseconds a call.
    package func containsIgnoringASCIICase(_ needle: String) -> Bool {
        let haystack = Array(utf8)
        let needle = Array(needle.utf8)
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { start in
            Self.equalIgnoringASCIICase(haystack[start..<(start + needle.count)], needle)
        }
    }

    private static func equalIgnoringASCIICase(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        a.elementsEqual(b) { x, y in
            x == y || (x | 0x20 == y | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(x | 0x20))
        }
    }
}
