/// The characters a table's keys are made of, learned from keys read, so that a scan can guess a key
/// some way past another (``KeySample``) in the space the keys really use.
///
/// Keys seldom use the whole of Unicode: GUIDs are 17 characters, dates and numbers fewer. Spread
/// over code points, `…f` and `…0` of a hex key are 54 apart with nothing between, and a guess made
/// there lands in a gap; spread over the characters seen, they are neighbours. Each character is a
/// digit, its place in the alphabet plus one; 0 is the end of a key, which orders before any
/// character, as a shorter key orders before a longer one it starts.
///
/// Only characters below U+D800 and not control characters are learned, so that a key made of them
/// compares with any other key the same way by UTF-8 bytes (our order, and the filter's) as by
/// UTF-16 code units: the first difference from it is then below U+D800 on its side, where the two
/// orders agree. A boundary of these characters cuts a range where every service would.
package struct KeyAlphabet: Sendable {
    /// The learned scalar values, ascending.
    private(set) var scalars: [UInt32] = []

    package init() {}

    /// Learns the characters of a key.
    package mutating func learn(_ key: String) {
        for scalar in key.unicodeScalars where Self.isUsable(scalar.value) {
            let index = lowerBound(scalar.value)
            if index == scalars.count || scalars[index] != scalar.value { scalars.insert(scalar.value, at: index) }
        }
    }

    private static func isUsable(_ value: UInt32) -> Bool {
        value >= 0x20 && value < 0xD800 && !(0x7F...0x9F).contains(value)
    }

    /// How many digits a position has: the characters, and the end of a key.
    var radix: Int { scalars.count + 1 }

    /// The digit of the character at a position (nil: the key has ended there). A character not in
    /// the alphabet lies between the digits of its neighbours in it.
    func digit(_ value: UInt32?) -> Double {
        guard let value else { return 0 }
        let index = lowerBound(value)
        if index < scalars.count, scalars[index] == value { return Double(index + 1) }
        if index == 0 { return 0.5 }
        if index == scalars.count { return Double(scalars.count) + 0.5 }
        let below = scalars[index - 1]
        return Double(index) + Double(value - below) / Double(scalars[index] - below)
    }

    /// The character whose digit is `digit`, from 1 to `radix - 1`.
    func character(_ digit: Int) -> Unicode.Scalar {
        // Learned scalars are below U+D800, so each is a scalar.
        Unicode.Scalar(scalars[digit - 1])!
    }

    /// The index of the first learned scalar not below `value`.
    private func lowerBound(_ value: UInt32) -> Int {
        var low = 0
        var high = scalars.count
        while low < high {
            let middle = (low + high) / 2
            if scalars[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
