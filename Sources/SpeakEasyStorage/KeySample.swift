/// Keys read in a row from one stretch of a table (a page's first and last key, and how many it
/// held): how densely that stretch is populated, so a scan can guess where the key some number of
/// keys further on lies, and cut a range there without reading up to it (``ParallelScan``).
///
/// The guess interpolates in the space of the keys' own characters, place by place
/// (``KeyAlphabet``), from the position where the sample's keys part: a long prefix that every key
/// shares costs nothing. It is only a guess: a cut is correct wherever it falls, and a range that
/// holds more than a page is read a page at a time as any other.
package struct KeySample: Sendable {
    package var first: String
    package var last: String
    /// How many keys the stretch from `first` to `last` holds, both counted.
    package var count: Int

    package init(first: String, last: String, count: Int) {
        self.first = first
        self.last = last
        self.count = count
    }

    /// A key about `target` keys past `lower` at the sample's density, strictly after `lower` and
    /// before `upper` in key order; nil when the sample cannot tell (too few keys, or keys that do
    /// not part within the places a Double holds).
    ///
    /// `lower` may lie past the sample's stretch: a scan cuts ahead of the pages it has read, so its
    /// latest sample lags its cuts by as many pieces as it reads at once.
    package func boundary(
        after lower: String,
        target: Int,
        before upper: String?,
        alphabet: KeyAlphabet
    ) -> String? {
        guard count >= 2, target >= 1 else { return nil }
        let first = self.first.unicodeScalars.map(\.value)
        let last = self.last.unicodeScalars.map(\.value)
        let from = lower.unicodeScalars.map(\.value)
        var shared = 0
        while shared < first.count, shared < last.count, first[shared] == last[shared] { shared += 1 }
        // Where `lower` leaves the sample's prefix, the guess is made from there. Requiring the
        // prefix stopped every cut each time the scan's cuts passed the next first hex digit of its
        // GUIDs, and read the rest uncut: at `--parallel 16` the reads in flight drained to one,
        // sixteen times a partition.
        var common = 0
        while common < shared, common < from.count, first[common] == from[common] { common += 1 }
        // One place before the keys part, so a guess may carry into it (`…0f` on to `…10`).
        let start = max(0, common - 1)

        // As many places as a Double holds exactly. Each place has a radix of its own
        // (``KeyAlphabet``); one with a single character (a GUID's hyphen) adds nothing, so the
        // count is bounded too.
        var places: [KeyAlphabet.PlaceDigits] = []
        var span = 1.0
        while places.count < 256 {
            let place = alphabet.digits(at: start + places.count)
            guard span * Double(place.radix) < 0x1p52 else { break }
            span *= Double(place.radix)
            places.append(place)
        }
        guard span >= 2 else { return nil }
        func position(_ key: [UInt32]) -> Double {
            var total = 0.0
            var scale = 1.0
            for (offset, place) in places.enumerated() {
                scale /= Double(place.radix)
                let index = start + offset
                total += place.digit(index < key.count ? key[index] : nil) * scale
            }
            return total
        }
        let width = position(last) - position(first)
        guard width > 0 else { return nil }
        var target = position(from) + width * Double(target) / Double(count - 1)
        guard target < 1 else { return nil }

        var scalars = String.UnicodeScalarView()
        for value in first[..<start] { scalars.append(Unicode.Scalar(value)!) }
        for place in places {
            target *= Double(place.radix)
            let digit = min(Int(target), place.radix - 1)
            target -= Double(digit)
            guard let character = place.character(digit) else { break }
            scalars.append(character)
        }
        let boundary = String(scalars)
        guard KeyOrder.precedes(lower, boundary), upper.map({ KeyOrder.precedes(boundary, $0) }) ?? true else {
            return nil
        }
        return boundary
    }
}
