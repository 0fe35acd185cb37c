/// The characters a table's keys are made of at each place, learned from keys read, so that a scan
/// can guess a key some way past another (``KeySample``) in the space the keys really use.
///
/// Keys seldom use the whole of Unicode: GUIDs are 17 characters, dates and numbers fewer. Spread
/// over code points, `…f` and `…0` of a hex key are 54 apart with nothing between, and a guess made
/// there lands in a gap; spread over the characters seen, they are neighbours.
///
/// Formats also fix what goes where: a GUID has a hyphen at place 8 and never a hex digit, and is
/// never shorter than 36. One alphabet for every place would leave room for a hyphen and for the end
/// of a key at each place, a ninth of the space that no key fills, and a guess that lands there cuts
/// a range that comes back empty (as the cuts next to every first hex digit of the seeded RowKeys
/// did). So a place holds the punctuation (any character but a letter or digit) seen at that place,
/// the end of a key only where a key has ended, and, where a letter or digit was seen, every letter
/// and digit seen anywhere: the first keys read are close together, and their first places have seen
/// few of the letters and digits that the keys further on use there.
///
/// Each character is a digit, its place in its place's alphabet; the end of a key orders before any
/// character, as a shorter key orders before a longer one it starts.
///
/// Only characters below U+D800 and not control characters are learned, so that a key made of them
/// compares with any other key the same way by UTF-8 bytes (our order, and the filter's) as by
/// UTF-16 code units: the first difference from it is then below U+D800 on its side, where the two
/// orders agree. A boundary of these characters cuts a range where every service would.
package struct KeyAlphabet: Sendable {
    /// What one place of the keys holds.
    struct Place: Sendable {
        /// The punctuation seen here, ascending.
        var marks: [UInt32] = []
        /// Whether a letter or digit was seen here.
        var hasWords = false
        /// Whether a key read ended here (was this many characters long).
        var hasEnd = false
    }

    /// The places, from a key's first character; past the longest key learned, every character.
    private(set) var places: [Place] = []
    /// Every letter and digit seen, at any place, ascending; and every punctuation character.
    private(set) var words: [UInt32] = []
    private(set) var marks: [UInt32] = []

    package init() {}

    /// Learns the characters of a key, place by place, and where it ends.
    package mutating func learn(_ key: String) {
        var index = 0
        for scalar in key.unicodeScalars {
            if index == places.count { places.append(Place()) }
            let value = scalar.value
            if Self.isUsable(value) {
                if Self.isWord(value) {
                    places[index].hasWords = true
                    Self.insert(value, into: &words)
                } else {
                    Self.insert(value, into: &places[index].marks)
                    Self.insert(value, into: &marks)
                }
            }
            index += 1
        }
        if index == places.count { places.append(Place()) }
        places[index].hasEnd = true
    }

    private static func isUsable(_ value: UInt32) -> Bool {
        value >= 0x20 && value < 0xD800 && !(0x7F...0x9F).contains(value)
    }

    /// ASCII letters and digits, and every character past ASCII (the letters of other scripts).
    private static func isWord(_ value: UInt32) -> Bool {
        (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
            || value >= 0x80
    }

    private static func insert(_ value: UInt32, into scalars: inout [UInt32]) {
        let index = lowerBound(value, in: scalars)
        if index == scalars.count || scalars[index] != value { scalars.insert(value, at: index) }
    }

    /// The digits of place `index`: its characters, ascending, and whether the end of a key is one.
    /// Made once a place for each guess, which reads it many times.
    func digits(at index: Int) -> PlaceDigits {
        let place = index < places.count ? places[index] : Place(marks: marks, hasWords: true, hasEnd: true)
        var scalars = place.marks
        if place.hasWords {
            scalars += words
            scalars.sort()
        }
        // A place where no character was usable takes them all.
        if scalars.isEmpty && !place.hasEnd { return PlaceDigits(scalars: (marks + words).sorted(), hasEnd: true) }
        return PlaceDigits(scalars: scalars, hasEnd: place.hasEnd)
    }

    /// One place's digits: the end of a key is 0 where a key ended there, and the characters follow.
    struct PlaceDigits {
        let scalars: [UInt32]
        let hasEnd: Bool

        private var offset: Int { hasEnd ? 1 : 0 }

        /// How many digits the place has.
        var radix: Int { scalars.count + offset }

        /// The digit of a character (nil: the key has ended here). A character not in the place's
        /// alphabet lies between the digits of its neighbours in it.
        func digit(_ value: UInt32?) -> Double {
            guard let value else { return 0 }
            let offset = Double(self.offset)
            let found = KeyAlphabet.lowerBound(value, in: scalars)
            if found < scalars.count, scalars[found] == value { return offset + Double(found) }
            if found == 0 { return max(0, offset - 0.5) }
            if found == scalars.count { return offset + Double(scalars.count - 1) + 0.5 }
            let below = scalars[found - 1]
            return offset + Double(found - 1) + Double(value - below) / Double(scalars[found] - below)
        }

        /// The character whose digit is `digit`, from 0 to ``radix`` − 1; nil for the end of a key.
        func character(_ digit: Int) -> Unicode.Scalar? {
            guard digit >= offset else { return nil }
            // Learned scalars are below U+D800, so each is a scalar.
            return Unicode.Scalar(scalars[digit - offset])!
        }
    }

    /// The index of the first scalar in `scalars` not below `value`.
    fileprivate static func lowerBound(_ value: UInt32, in scalars: [UInt32]) -> Int {
        var low = 0
        var high = scalars.count
        while low < high {
            let middle = (low + high) / 2
            if scalars[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
