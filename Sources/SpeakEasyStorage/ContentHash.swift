package import SpeakEasyModel

/// An order-independent digest of a set of entities' content: the sum of their ``EntityDigest``s as
/// 256-bit little-endian integers modulo 2^256.
///
/// Any reader can recompute it in any order — a store scan, a file, a stream — and compare it with the
/// seed manifest's.
package struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    /// Names the form: a hash recorded with another prefix was computed another way and cannot be
    /// compared (`sha256-sum:` summed the properties in their stored order, before the canonical form).
    package static let prefix = "sha256-canonical:"

    package init() {}

    package mutating func add(_ entity: Entity) {
        add(EntityDigest(entity))
    }

    package mutating func add(_ digest: EntityDigest) {
        var carry = false
        func add(_ word: inout UInt64, _ value: UInt64) {
            let (sum1, overflow1) = word.addingReportingOverflow(value)
            let (sum2, overflow2) = sum1.addingReportingOverflow(carry ? 1 : 0)
            word = sum2
            carry = overflow1 || overflow2
        }
        add(&words.0, digest.words.0)
        add(&words.1, digest.words.1)
        add(&words.2, digest.words.2)
        add(&words.3, digest.words.3)
    }

    /// ``prefix`` and 64 hex digits (least significant word first, as the bytes are added).
    package var description: String {
        var hex = Self.prefix
        for word in [words.0, words.1, words.2, words.3] {
            let digits = String(word.littleEndian.byteSwapped, radix: 16)
            hex += String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex
    }

    /// Whether a recorded hash was computed in this form.
    package static func isComparable(_ recorded: String) -> Bool { recorded.hasPrefix(prefix) }

    package static func == (lhs: ContentHash, rhs: ContentHash) -> Bool { lhs.words == rhs.words }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
