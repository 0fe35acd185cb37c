import SpeakEasyData
import Testing

/// Where a parallel scan cuts (``KeySample``, ``KeyAlphabet``): a guess from one page of keys lands
/// about the asked number of keys further on, wherever that is, so cut pieces hold about a page.
@Suite("KeySample: where a scan cuts")
struct KeySampleTests {
    /// Sorted v4 GUIDs as the seed writes RowKeys, and the alphabet learned from all of them.
    static let keys: [String] = {
        var random = SplitMix64(seed: 31)
        return (0..<100_000).map { _ in random.guid().description }.sorted { KeyOrder.precedes($0, $1) }
    }()

    /// How many of `keys` lie in `lower ..< upper`.
    static func count(from lower: String, to upper: String) -> Int {
        func index(_ key: String) -> Int {
            var low = 0
            var high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if KeyOrder.precedes(keys[middle], key) { low = middle + 1 } else { high = middle }
            }
            return low
        }
        return index(upper) - index(lower)
    }

    @Test("GUIDs: every guess from a page of 1,000 lands 600 to 1,200 keys on, across every first hex digit")
    func guidsAcrossDigits() throws {
        var alphabet = KeyAlphabet()
        for key in Self.keys { alphabet.learn(key) }
        var crossings = 0
        // Each page's last key is the next range's lower bound, as a scan cuts after a page.
        for last in stride(from: 999, to: Self.keys.count - 2_000, by: 250) {
            let sample = KeySample(first: Self.keys[last - 999], last: Self.keys[last], count: 1_000)
            let lower = Self.keys[last]
            let boundary = try #require(
                sample.boundary(after: lower, target: 900, before: nil, alphabet: alphabet),
                "no guess after \(lower)"
            )
            let held = Self.count(from: lower, to: boundary)
            // One GUID in 16 starts past the next first hex digit: the guesses that used to land in
            // the room a hyphen or a key's end would take there, and hold a handful of keys.
            if boundary.first != lower.first { crossings += 1 }
            #expect((600...1_200).contains(held), "after \(lower): \(boundary) holds \(held)")
        }
        #expect(crossings >= 15, "only \(crossings) guesses crossed to the next first hex digit")
    }

    @Test("GUIDs: a sample from pages behind the cut still guesses, across every first hex digit")
    func guidsFromALaggingSample() throws {
        var alphabet = KeyAlphabet()
        for key in Self.keys { alphabet.learn(key) }
        // Pages of 100 of these 100,000 keys span what pages of 1,000 span of a million: their
        // keys share a first hex digit, and often a second. A scan reading 16 pieces at once cuts
        // about 16 pieces ahead of the latest page it has read.
        let (page, target) = (100, 90)
        let lag = 16 * target
        var crossings = 0
        for last in stride(from: page - 1 + lag, to: Self.keys.count - 2 * page, by: 25) {
            let sample = KeySample(first: Self.keys[last - lag - page + 1], last: Self.keys[last - lag], count: page)
            let lower = Self.keys[last]
            let boundary = try #require(
                sample.boundary(after: lower, target: target, before: nil, alphabet: alphabet),
                "no guess after \(lower) from a sample of \(sample.first) to \(sample.last)"
            )
            if sample.first.first != lower.first { crossings += 1 }
            // A sample of 100 keys tells their density to about a tenth: these land 45 to 141 on.
            let held = Self.count(from: lower, to: boundary)
            #expect((40...150).contains(held), "after \(lower): \(boundary) holds \(held)")
        }
        #expect(crossings >= 15, "only \(crossings) samples lay before the cut's first hex digit")
    }

    @Test("keys of many lengths: a guess never leaves the range and holds some keys")
    func mixedLengths() throws {
        let keys = (0..<5_000).map { String($0 * 7) }.sorted { KeyOrder.precedes($0, $1) }
        var alphabet = KeyAlphabet()
        for key in keys { alphabet.learn(key) }
        for last in stride(from: 99, to: keys.count - 200, by: 97) {
            let sample = KeySample(first: keys[last - 99], last: keys[last], count: 100)
            let upper = keys[last + 200]
            guard let boundary = sample.boundary(after: keys[last], target: 90, before: upper, alphabet: alphabet)
            else {
                continue
            }
            #expect(KeyOrder.precedes(keys[last], boundary) && KeyOrder.precedes(boundary, upper))
            let held = keys.filter { !KeyOrder.precedes($0, keys[last]) && KeyOrder.precedes($0, boundary) }.count
            #expect(held >= 2, "after \(keys[last]): \(boundary) holds \(held)")
        }
    }
}
